package dev.pvtlb.pvops;

/**
 * The kernel's {@code struct mmu_gather} as the pv op {@code tlb_remove_table} sees it: the
 * batch of an unmap in progress, whose page-table pages are freed only after its TLB flush,
 * by the table-free policy ({@link TableFreePolicy}). The guest's own gather implements it.
 */
public interface TlbGather {
    /**
     * Queues the page-table page at frame {@code pfn} to be freed after this gather's flush
     * ({@code tlb_remove_table()} putting the table in {@code tlb->batch}).
     */
    void addTable(int pfn);
}
