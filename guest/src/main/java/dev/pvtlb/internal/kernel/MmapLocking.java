package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.MmapLock;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.stats.Counter;
import java.util.List;

/**
 * mmap_read_lock / mmap_write_lock / mmap_*_unlock / mmap_write_downgrade for a task: the
 * semaphore's rules are {@link MmapLock}'s; here is what they cost and who sleeps. Every down and
 * up is an atomic on the count's cache line ({@code sem->count}), so faults on many CPUs move that
 * line between them (the mmap_lock contention that per-VMA locks, 6.4, were made to remove). A
 * task that cannot have the lock sleeps (schedule(): its CPU idles, on a host its vCPU halts); the
 * release that hands it the lock wakes it with try_to_wake_up(), a reschedule IPI when its CPU is
 * halted. The sleeper's program step is retried when it runs again, holding the lock by then.
 * A writer whose lock is held by a running writer spins instead (rwsem_optimistic_spin(),
 * {@link RwsemSpin}) until the owner releases it or stops running, then tries again, and may take
 * the lock ahead of the sleepers; from 5.3 to 5.11 a reader does too ({@code rwsem.readerSpin}).
 */
public final class MmapLocking {
    private MmapLocking() {}

    /** owner_on_cpu(): the owner is its CPU's current task and that (v)CPU is running (!vcpu_is_preempted()). */
    static boolean ownerOnCpu(Task owner) {
        KernelCpu c = owner.cpu();
        return c.rq.current() == owner && c.vcpuRunning();
    }

    /**
     * Takes {@code task}'s mm's mmap_lock for {@code want}; returns the cost. If it must wait, the
     * task is queued and sleeps: {@link Task#mmapLockHeld()} stays NONE until a release grants it.
     */
    public static long lock(KernelCpu cpu, Task task, MmapLockHold want) {
        Mm mm = task.mm();
        long now = cpu.kernel().engine().now();
        MmapLock lock = mm.mmapLock();
        boolean spinning = task.mmapLockSpinning;
        task.mmapLockSpinning = false;
        // A spinner looks at the count and owner (a read) and tries its atomic only when the lock is free.
        long cost = spinning ? cpu.lines.read(mm.mmapLockLine(), now) : cpu.lines.write(mm.mmapLockLine(), now);
        boolean taken = want == MmapLockHold.WRITE ? (spinning ? lock.tryWriteUnqueued(task) : lock.tryWrite(task))
                : spinning ? lock.tryReadUnqueued() : lock.tryRead();
        if (taken) {
            task.mmapLockHeld = want;
            return spinning ? cost + cpu.lines.write(mm.mmapLockLine(), now + cost) : cost;
        }
        if ((want == MmapLockHold.WRITE || cpu.kernel().knobs().rwsemReaderSpin)
                && lock.writer() instanceof Task owner && ownerOnCpu(owner)) {
            // rwsem_optimistic_spin(): a writer spins while the owner runs on a CPU: it stays on
            // its own, in the mm, and tries again when the owner releases the lock or stops
            // running. A reader does the same on a writer owner from 5.3 (cf69482d62d9) until
            // 5.12 (617f3ef95177, rwsem.readerSpin); otherwise readers sleep.
            task.mmapLockSpinning = true;
            cpu.call(new RwsemSpin(task, owner));
            return cost;
        }
        lock.enqueue(task, want == MmapLockHold.WRITE);

        task.mmapLockWanted = want;
        task.block();
        cpu.kernel().vmstat().inc(Counter.MMAP_LOCK_WAITS);
        return cost;
    }

    /** Releases whatever {@code task} holds and wakes the waiters it hands the lock to; returns the cost. */
    public static long unlock(KernelCpu cpu, Task task) {
        Mm mm = task.mm();
        long cost = cpu.lines.write(mm.mmapLockLine(), cpu.kernel().engine().now());
        List<Object> granted = switch (task.mmapLockHeld) {
            case READ -> mm.mmapLock().upRead();
            case WRITE -> mm.mmapLock().upWrite(task);
            case NONE -> throw new IllegalStateException(task + " releases an mmap_lock it does not hold");
        };
        task.mmapLockHeld = MmapLockHold.NONE;
        cost += wake(cpu, granted);
        task.wakeSpinners();
        return cost;
    }

    /** mmap_write_downgrade() by a writer (munmap before it zaps); a task that does not hold it for writing is left as it is. */
    public static long downgrade(KernelCpu cpu, Task task) {
        if (task == null || task.mmapLockHeld != MmapLockHold.WRITE) {
            return 0;
        }
        Mm mm = task.mm();
        long cost = cpu.lines.write(mm.mmapLockLine(), cpu.kernel().engine().now());
        List<Object> granted = mm.mmapLock().downgrade(task);
        task.mmapLockHeld = MmapLockHold.READ;
        cost += wake(cpu, granted);
        task.wakeSpinners();
        return cost;
    }

    private static long wake(KernelCpu cpu, List<Object> granted) {
        long cost = 0;

        for (Object o : granted) {
            Task t = (Task) o;
            t.mmapLockHeld = t.mmapLockWanted;
            t.mmapLockWanted = MmapLockHold.NONE;
            cost += TaskWakeup.wakeFrom(t, cpu);
        }
        return cost;
    }
}
