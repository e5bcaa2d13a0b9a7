package dev.pvtlb.internal.mmu;

/** Who read a page table: the hazard reports name it. */
public enum Walker {
    /** The page walker on a TLB miss, from CR3. */
    HARDWARE("hardware page walk"),
    /** The page walker on a TLB miss, starting from a paging-structure-cache entry. */
    PSC_ASSISTED("page walk from a paging-structure cache entry"),
    /** A walk the CPU does on its own on the loaded CR3, e.g. while lazy or idle. */
    SPECULATIVE("speculative page walk"),
    /** The kernel's lockless software walk, run with IRQs off (mm/gup.c). */
    GUP_FAST("gup_fast");

    private final String kernelName;

    Walker(String kernelName) {
        this.kernelName = kernelName;
    }

    /** How a trace names this walker. */
    public String kernelName() {
        return kernelName;
    }
}
