package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;

/**
 * A kernel path of the model itself: it only ever runs on the model's own CPUs, so it takes
 * the executor ({@link KernelCpu}) rather than the SPI's view.
 */
public abstract class InternalPath extends KernelPath {
    /** For subclasses. */
    protected InternalPath() {}

    @Override
    public final long step(Cpu cpu) {
        return step((KernelCpu) cpu);
    }

    /** One step on {@code cpu} (see {@link KernelPath#step(Cpu)}). */
    public abstract long step(KernelCpu cpu);

    /** How this path, entered as a system call, takes the caller's mmap_lock (mmapLock=rwsem); none by default. */
    public MmapLockHold mmapLock() {
        return MmapLockHold.NONE;
    }
}
