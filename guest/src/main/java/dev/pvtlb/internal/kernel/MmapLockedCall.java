package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.KernelPath;

/**
 * A system call's kernel path run with its task holding the mmap_lock (taken by the caller with
 * {@link MmapLocking#lock}): mmap_read_unlock / mmap_write_unlock when the path returns, in
 * whichever mode the path left it (munmap downgrades on the way).
 */
public final class MmapLockedCall extends AroundCall {
    private final Task task;

    public MmapLockedCall(KernelPath inner, Task task) {
        super(inner);
        this.task = task;
    }

    @Override
    protected long returned(KernelCpu cpu) {
        return MmapLocking.unlock(cpu, task);
    }
}
