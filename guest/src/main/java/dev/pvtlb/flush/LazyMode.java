package dev.pvtlb.flush;

/** The {@code lazy} knob: how CPUs in lazy TLB mode are treated by shootdowns. */
public enum LazyMode {
    /** No lazy TLB: an idle CPU switches to init_mm at once (and leaves mm_cpumask). */
    OFF("off"),
    /** Lazy CPUs keep the old mm and still take every flush IPI (before Linux 4.19). */
    IPI("ipi"),
    /** Lazy CPUs are skipped unless page tables were freed; they catch up through tlb_gen (Linux 4.19+). */
    SKIP("skip"),
    /**
     * Lazy CPUs are skipped even when tables were freed: the bug fixed by patch 2 of Rik van Riel,
     * "x86,tlb,mm: make lazy TLB mode even lazier", LKML June 2018 (their speculative walks may use
     * freed tables).
     */
    SKIP_NOFREE("skip-nofree");

    public final String value;

    LazyMode(String value) {
        this.value = value;
    }

    public static LazyMode of(String v) {
        for (LazyMode m : values()) {
            if (m.value.equals(v)) {
                return m;
            }
        }
        throw new IllegalArgumentException(v);
    }
}
