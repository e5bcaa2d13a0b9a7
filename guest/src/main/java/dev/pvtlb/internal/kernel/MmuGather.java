package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mmu.Level;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.mmu.UnmapSink;
import dev.pvtlb.pvops.TlbGather;
import java.util.Arrays;

/**
 * {@code struct mmu_gather} (include/asm-generic/tlb.h, mm/mmu_gather.c): collects the range
 * whose TLB entries must be flushed, the data pages and the page-table pages taken out by an
 * unmap, so that nothing is freed before the flush: unhook, invalidate, free.
 */
public final class MmuGather implements UnmapSink, TlbGather {
    private final KernelCpu cpu;
    private final Mm mm;
    private long start = Long.MAX_VALUE;
    private long end;
    private boolean freedTables;
    private int[] pages = new int[64];
    private int nrPages;
    private int[] tables = new int[8];
    private int nrTables;
    private int clearedPtes;

    public MmuGather(KernelCpu cpu, Mm mm) {
        this.cpu = cpu;
        this.mm = mm;
    }

    public Mm mm() {
        return mm;
    }

    /** What a pv_ops trace prints for the gather (PvOpsTracer): its mm. */
    @Override
    public String toString() {
        return "tlb(" + mm + ")";
    }

    @Override
    public void page(long va, long oldPte) {
        // tlb_remove_tlb_entry() -> tlb_flush_pte_range(): widen the range to flush.
        start = Math.min(start, va);
        end = Math.max(end, va + PhysMem.PAGE_SIZE);
        clearedPtes++;
        int pfn = (int) Pte.pfnOf(oldPte);
        if (pfn == cpu.kernel().zeroPfnIfUsed()) {
            return; // vm_normal_page() is NULL for the zero page: nothing to free
        }
        if (nrPages == pages.length) {
            pages = Arrays.copyOf(pages, nrPages * 2);
        }
        pages[nrPages++] = pfn;
    }

    @Override
    public void table(int pfn, Level level, long va) {
        // pte_free_tlb() and friends: the range grows by the table's address, freed_tables = 1.
        freedTables = true;
        start = Math.min(start, va);
        end = Math.max(end, va + PhysMem.PAGE_SIZE);
        cpu.kernel().pvOps().tlbRemoveTable(cpu, this, pfn);
    }

    @Override
    public boolean spanInUse(long s, long e) {
        return mm.overlaps(s, e);
    }

    /** Called by tlb_remove_table implementations: batch the table for freeing after the flush. */
    public void addTable(int pfn) {
        if (nrTables == tables.length) {
            tables = Arrays.copyOf(tables, nrTables * 2);
        }
        tables[nrTables++] = pfn;
    }

    /** Whether anything was unmapped, i.e. a flush is needed (tlb->end != 0). */
    public boolean needsFlush() {
        return end > 0;
    }

    public long start() {
        return start;
    }

    public long end() {
        return end;
    }

    public boolean freedTables() {
        return freedTables;
    }

    public int clearedPtes() {
        return clearedPtes;
    }

    public int[] pages() {
        return Arrays.copyOf(pages, nrPages);
    }

    /** The batched tables, leaving the batch empty (they were freed one by one). */
    public int[] takeTables() {
        int[] t = tables();
        nrTables = 0;
        return t;
    }

    public int[] tables() {
        return Arrays.copyOf(tables, nrTables);
    }
}
