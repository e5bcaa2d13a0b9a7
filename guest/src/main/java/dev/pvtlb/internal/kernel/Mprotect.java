package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.smp.KernelPath;

/**
 * mprotect() (mm/mprotect.c): change the VMAs' protection and the present PTEs
 * (change_pte_range), and flush the range if any entry changed.
 */
public final class Mprotect extends InternalPath {
    private final Mm mm;
    private final long start;
    private final long end;
    private final boolean writable;
    private long[] pending;

    public Mprotect(Mm mm, long start, long end, boolean writable) {
        PageTables.checkUserRange(start, end);
        this.mm = mm;
        this.start = start;
        this.end = end;
        this.writable = writable;
    }

    /** do_mprotect_pkey(): mmap_write_lock_killable. */
    @Override
    public MmapLockHold mmapLock() {
        return MmapLockHold.WRITE;
    }

    @Override
    public long step(KernelCpu cpu) {
        if (pc == 1) {
            mm.endFlushPending(pending);
            cpu.ret();
            return 0;
        }
        Kernel g = cpu.kernel();
        Costs c = g.costs();
        pending = mm.beginFlushPending(start, end);
        mm.protectRange(start, end, writable);
        int changed = writable
                ? g.pageTables().protect(mm.pgd(), start, end, 0, Pte.RW, g.zeroPfnIfUsed())
                : g.pageTables().protect(mm.pgd(), start, end, Pte.RW, 0);
        long cost = c.syscallNs + c.vmaOpNs + ((end - start) >>> PhysMem.PAGE_SHIFT) * c.pteOpNs;
        if (changed > 0) {
            pc = 1;
            cpu.call(new FlushTlbMmRange(mm, start, end, PhysMem.PAGE_SHIFT, false, writable));
        } else {
            mm.endFlushPending(pending);
            cpu.ret();
        }
        return cost;
    }

    @Override
    public String name() {
        return "mprotect";
    }
}
