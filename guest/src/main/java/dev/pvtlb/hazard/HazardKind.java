package dev.pvtlb.hazard;

/** What went wrong. */
public enum HazardKind {
    /** A walker read a frame as a page table after the frame was freed (and maybe reused). */
    WALK_AFTER_FREE,
    /**
     * A CPU used a cached translation that no longer matches the page tables, outside the
     * window of the change's own flush (after it returned, or with no flush at all).
     */
    STALE_TRANSLATION
}
