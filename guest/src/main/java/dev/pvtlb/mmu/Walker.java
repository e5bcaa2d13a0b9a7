package dev.pvtlb.mmu;

/** Who read a page table: the hazard reports name it. */
public enum Walker {
    /** The page walker on a TLB miss, from CR3. */
    HARDWARE,
    /** The page walker on a TLB miss, starting from a paging-structure-cache entry. */
    PSC_ASSISTED,
    /** A walk the CPU does on its own on the loaded CR3, e.g. while lazy or idle. */
    SPECULATIVE,
    /** The kernel's lockless software walk, run with IRQs off (mm/gup.c). */
    GUP_FAST
}
