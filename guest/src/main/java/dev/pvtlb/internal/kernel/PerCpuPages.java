package dev.pvtlb.internal.kernel;

/**
 * A CPU's page caches in front of the node's page locks (pageLocks=on): how many free pages its
 * per-CPU list holds (struct per_cpu_pages count) and how many pages wait in its LRU-add page
 * vector (lru_add_pvec). Only the counts are modelled: they decide when the zone lock or the LRU
 * lock is taken ({@link PageLists}, {@link ReleasePages}).
 */
final class PerCpuPages {
    /** Free pages on the per-CPU list. */
    int pcp;
    /** Pages in the LRU-add page vector. */
    int lruPagevec;

    void clear() {
        pcp = 0;
        lruPagevec = 0;
    }
}
