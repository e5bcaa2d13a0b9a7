package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.smp.KernelPath;
import java.util.function.LongConsumer;

/**
 * mmap() of anonymous memory (mm/mmap.c): find a gap (get_unmapped_area), insert the VMA.
 * Pages are populated later by faults. The address is handed to {@code result}. With
 * {@link #fixed} (MAP_FIXED) the VMA goes exactly where asked, over a range the caller has
 * unmapped.
 */
public final class Mmap extends InternalPath {
    private final Mm mm;
    private final long length;
    private final boolean writable;
    private final LongConsumer result;
    /** MAP_FIXED's address, or -1 to find a gap. */
    private final long fixedAt;

    public Mmap(Mm mm, long length, boolean writable, LongConsumer result) {
        this(mm, -1, length, writable, result);
    }

    private Mmap(Mm mm, long fixedAt, long length, boolean writable, LongConsumer result) {
        if (length <= 0 || (length & (PhysMem.PAGE_SIZE - 1)) != 0) {
            throw new ModelException("mmap length must be a positive multiple of 4 KiB, got " + length);
        }
        this.mm = mm;
        this.fixedAt = fixedAt;
        this.length = length;
        this.writable = writable;
        this.result = result;
    }

    /**
     * mmap(start, end - start, ..., MAP_FIXED | MAP_ANONYMOUS) (do_mmap() with MAP_FIXED) over a
     * range that is free: tlb-torture maps a slot again at the same address after its munmap, so
     * the next access meets whatever translation of the old pages a broken flush left behind.
     */
    public static Mmap fixed(Mm mm, long start, long end, boolean writable) {
        return new Mmap(mm, start, end - start, writable, a -> { });
    }

    /** vm_mmap_pgoff(): mmap_write_lock_killable. */
    @Override
    public MmapLockHold mmapLock() {
        return MmapLockHold.WRITE;
    }

    @Override
    public long step(KernelCpu cpu) {
        Kernel g = cpu.kernel();
        long addr = fixedAt >= 0 ? fixedAt : mm.getUnmappedArea(length);
        mm.insertVma(addr, addr + length, writable, false);
        result.accept(addr);
        cpu.ret();
        return g.costs().syscallNs + g.costs().vmaOpNs;
    }

    @Override
    public String name() {
        return "mmap";
    }
}
