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
 */
public final class MmapLocking {
    /** How a task holds (or wants) its mm's mmap_lock. */
    public enum Hold { NONE, READ, WRITE }

    private MmapLocking() {}

    /**
     * Takes {@code task}'s mm's mmap_lock for {@code want}; returns the cost. If it must wait, the
     * task is queued and sleeps: {@link Task#mmapLockHeld()} stays NONE until a release grants it.
     */
    public static long lock(KernelCpu cpu, Task task, Hold want) {
        Mm mm = task.mm();
        long cost = cpu.writeLine(mm.mmapLockLine(), cpu.kernel().engine().now());
        MmapLock lock = mm.mmapLock();
        if (want == Hold.WRITE ? lock.tryWrite(task) : lock.tryRead()) {
            task.mmapLockHeld = want;
            return cost;
        }
        lock.enqueue(task, want == Hold.WRITE);

        task.mmapLockWanted = want;
        task.block();
        cpu.kernel().vmstat().inc(Counter.MMAP_LOCK_WAITS);
        return cost;
    }

    /** Releases whatever {@code task} holds and wakes the waiters it hands the lock to; returns the cost. */
    public static long unlock(KernelCpu cpu, Task task) {
        Mm mm = task.mm();
        long cost = cpu.writeLine(mm.mmapLockLine(), cpu.kernel().engine().now());
        List<Object> granted = switch (task.mmapLockHeld) {
            case READ -> mm.mmapLock().upRead();
            case WRITE -> mm.mmapLock().upWrite(task);
            case NONE -> throw new IllegalStateException(task + " releases an mmap_lock it does not hold");
        };
        task.mmapLockHeld = Hold.NONE;
        return cost + wake(cpu, granted);
    }

    /** mmap_write_downgrade() by a writer (munmap before it zaps); a task that does not hold it for writing is left as it is. */
    public static long downgrade(KernelCpu cpu, Task task) {
        if (task == null || task.mmapLockHeld != Hold.WRITE) {
            return 0;
        }
        Mm mm = task.mm();
        long cost = cpu.writeLine(mm.mmapLockLine(), cpu.kernel().engine().now());
        List<Object> granted = mm.mmapLock().downgrade(task);
        task.mmapLockHeld = Hold.READ;
        return cost + wake(cpu, granted);
    }

    private static long wake(KernelCpu cpu, List<Object> granted) {
        long cost = 0;

        for (Object o : granted) {
            Task t = (Task) o;
            t.mmapLockHeld = t.mmapLockWanted;
            t.mmapLockWanted = Hold.NONE;
            cost += t.wakeFrom(cpu);
        }
        return cost;
    }
}
