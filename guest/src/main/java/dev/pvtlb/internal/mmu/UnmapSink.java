package dev.pvtlb.internal.mmu;

/**
 * Receives what an unmap takes out of the page tables: the mm layer hands data pages and
 * page-table pages to its mmu_gather, which frees them only after the TLB flush.
 */
public interface UnmapSink {
    /** A present leaf entry at {@code va} was cleared; {@code oldPte} is what it held. */
    void page(long va, long oldPte);

    /** A page-table page of {@code level}, covering from {@code va}, was unhooked from its parent. */
    void table(int pfn, Level level, long va);

    /**
     * Whether a VMA still covers part of [start, end): then the table covering that span stays,
     * as free_pgtables() only frees tables between the neighbouring VMAs (floor, ceiling).
     */
    boolean spanInUse(long start, long end);
}
