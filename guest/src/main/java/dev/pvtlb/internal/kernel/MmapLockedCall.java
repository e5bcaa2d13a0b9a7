package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.TimeCategory;

/**
 * A system call's kernel path run with its task holding the mmap_lock (taken by the caller with
 * {@link MmapLocking#lock}): mmap_read_unlock / mmap_write_unlock when the path returns, in
 * whichever mode the path left it (munmap downgrades on the way).
 */
public final class MmapLockedCall extends InternalPath {
    private final KernelPath inner;
    private final Task task;

    public MmapLockedCall(KernelPath inner, Task task) {
        this.inner = inner;
        this.task = task;
    }

    @Override
    public long step(KernelCpu cpu) {
        if (pc == 0) {
            pc = 1;
            cpu.call(inner);
            return 0;
        }
        cpu.ret();
        return MmapLocking.unlock(cpu, task);
    }

    @Override
    public TimeCategory category() {
        return inner.category();
    }

    @Override
    public String name() {
        return inner.name();
    }
}
