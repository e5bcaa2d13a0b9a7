package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.Level;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.profile.Costs;

/**
 * mremap()'s move_page_tables() and move_ptes() (mm/mremap.c, 4.19): the PTEs of [old, old + len)
 * move to [new, new + len), one PTE table's extent at a time under the page-table lock. The page
 * is not freed and gathered as in a zap: it only moves, so its lifetime is bounded by the
 * page-table lock, and the flush of the old addresses must come before that lock is dropped (fix
 * eb66ae030829, "mremap: properly flush TLB before releasing the page", {@code
 * mremapFlush=under-ptl}). Before it ({@code after-unlock}, CVE-2018-18281) a clean PTE's flush
 * waited for the end of move_page_tables(), so a truncate could free the page at its new address
 * while another CPU still reached it through the old one. The VMAs are not moved: the scenario
 * keeps both ranges mapped, and only the page-table move and its flush are modelled.
 */
public final class MovePageTables extends InternalPath {
    private final Mm mm;
    private final long oldAddr;
    private final long newAddr;
    private final long len;
    private long done;
    /** move_ptes()'s *need_flush: a flush owed for the whole moved range. */
    private boolean needFlush;

    public MovePageTables(Mm mm, long oldAddr, long newAddr, long len) {
        PageTables.checkUserRange(oldAddr, oldAddr + len);
        PageTables.checkUserRange(newAddr, newAddr + len);
        this.mm = mm;
        this.oldAddr = oldAddr;
        this.newAddr = newAddr;
        this.len = len;
    }

    /** mremap(): mmap_write_lock_killable. */
    @Override
    public MmapLockHold mmapLock() {
        return MmapLockHold.WRITE;
    }

    @Override
    public long step(KernelCpu cpu) {
        Kernel g = cpu.kernel();
        Costs c = g.costs();
        switch (pc) {
            case 0 -> {
                pc = 1;
                return c.syscallNs + c.vmaOpNs;
            }
            case 1 -> {
                if (done == len) {
                    pc = 3;
                    if (needFlush) {
                        // move_page_tables(): flush_tlb_range(vma, old_end - len, old_end).
                        cpu.call(new FlushTlbMmRange(mm, oldAddr, oldAddr + len, PhysMem.PAGE_SHIFT, false));
                    }
                    return 0;
                }
                // move_ptes() over one extent: up to the next PTE-table boundary, under the old
                // table's lock and the new table's (spin_lock_nested() when they differ).
                long from = oldAddr + done;
                if (!mm.ptlTryLock(cpu.id, from)) {
                    return c.lineSameSocketNs; // spin on the page-table lock
                }
                if (!mm.ptlTryLock(cpu.id, newAddr + done)) {
                    mm.ptlUnlock(from);
                    return c.lineSameSocketNs;
                }
                long extent = Math.min(len - done, Level.PMD.entrySpan() - (from & (Level.PMD.entrySpan() - 1)));
                boolean forceFlush = false;
                for (long off = 0; off < extent; off += PhysMem.PAGE_SIZE) {
                    long pte = g.pageTables().get(mm.pgd(), from + off);
                    if (!Pte.present(pte)) {
                        continue;
                    }
                    g.pageTables().set(mm.pgd(), from + off, 0); // ptep_get_and_clear()
                    forceFlush |= (pte & Pte.DIRTY) != 0;
                    g.pageTables().set(mm.pgd(), newAddr + done + off, pte); // set_pte_at()
                }
                // The loop reads every slot of the extent, present or not.
                long cost = (extent >>> PhysMem.PAGE_SHIFT) * c.pteOpNs;
                long start = from;
                done += extent;
                pc = 2;
                if (forceFlush || g.knobs().mremapFlushUnderPtl) {
                    cpu.call(new FlushTlbMmRange(mm, start, start + extent, PhysMem.PAGE_SHIFT, false));
                } else {
                    needFlush = true;
                }
                return cost;
            }
            case 2 -> {
                // pte_unmap_unlock(old_pte - 1, old_ptl), and the new table's lock when it differs.
                long from = oldAddr + done - 1;
                long to = newAddr + done - 1;
                mm.ptlUnlock(from);
                if (!Mm.samePtl(from, to)) {
                    mm.ptlUnlock(to);
                }
                pc = 1;
                return 0;
            }
            default -> {
                cpu.ret();
                return 0;
            }
        }
    }

    @Override
    public String name() {
        return "mremap";
    }
}
