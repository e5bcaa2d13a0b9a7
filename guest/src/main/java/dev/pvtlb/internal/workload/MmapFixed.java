package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.InternalPath;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.MmapLocking;
import dev.pvtlb.internal.mm.Mm;

/**
 * mmap(addr, len, ..., MAP_FIXED | MAP_ANONYMOUS) over a range the caller has just unmapped
 * (do_mmap() with MAP_FIXED: the VMA goes exactly there). tlb-torture maps its slots again at the
 * same address after a munmap, so the next access to it meets whatever translation of the old
 * pages a broken flush left behind. The range must be free: the workload unmaps it first.
 */
final class MmapFixed extends InternalPath {
    private final Mm mm;
    private final long start;
    private final long end;
    private final boolean writable;

    MmapFixed(Mm mm, long start, long end, boolean writable) {
        this.mm = mm;
        this.start = start;
        this.end = end;
        this.writable = writable;
    }

    /** vm_mmap_pgoff(): mmap_write_lock_killable. */
    @Override
    public MmapLocking.Hold mmapLock() {
        return MmapLocking.Hold.WRITE;
    }

    @Override
    public long step(KernelCpu cpu) {
        mm.insertVma(start, end, writable, false);
        cpu.ret();
        return cpu.kernel().costs().syscallNs + cpu.kernel().costs().vmaOpNs;
    }

    @Override
    public String name() {
        return "mmap";
    }
}
