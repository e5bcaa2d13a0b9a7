package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.MmapLock;
import dev.pvtlb.stats.TimeCategory;

/**
 * A writer of the mmap_lock in rwsem_optimistic_spin() (kernel/locking/rwsem.c), or from 5.3 to
 * 5.11 a reader ({@code rwsem.readerSpin}): it found the lock owned by a writer running on a CPU,
 * so it waits in rwsem_spin_on_owner()'s loop, a cpu_relax()
 * between two looks at {@code sem->owner}, until the owner changes (the lock was released or
 * downgraded) or stops running (!owner_on_cpu(): it left its CPU, or its vCPU was descheduled);
 * then it returns, and the system call's lock attempt is made again.
 *
 * <p>The loop is a busy-wait in the kernel, as csd_lock_wait() and a queued spinlock's are here:
 * its CPU is blocked in {@link TimeCategory#LOCK_SPIN} (stolen while the host has its vCPU
 * descheduled), an interrupt is taken in it, it does not slow an SMT sibling (a PAUSE loop), and
 * the owner wakes it on what ends the loop ({@link Task#wakeSpinners}), instead of a step per
 * cpu_relax(). It notices the change at once, where the loop would within a cpu_relax().
 */
final class RwsemSpin extends InternalPath {
    private final Task task;
    private final Task owner;
    private final MmapLock lock;

    RwsemSpin(Task task, Task owner) {
        this.task = task;
        this.owner = owner;
        this.lock = task.mm().mmapLock();
    }

    /** rwsem_spin_on_owner()'s condition to go on: the same writer owns the lock and runs (owner_on_cpu()). */
    private boolean ownerStillRunning() {
        return lock.writer() == owner && MmapLocking.ownerOnCpu(owner);
    }

    @Override
    public long step(KernelCpu cpu) {
        if (ownerStillRunning()) {
            owner.spunOnBy(cpu);
            return BLOCK;
        }
        cpu.ret();
        return 0;
    }

    @Override
    public TimeCategory category() {
        return TimeCategory.LOCK_SPIN;
    }

    @Override
    public String name() {
        return "rwsem_optimistic_spin:" + task.name;
    }
}
