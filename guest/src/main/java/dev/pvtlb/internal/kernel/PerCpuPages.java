package dev.pvtlb.internal.kernel;

import java.util.Arrays;

/**
 * A CPU's page caches in front of the node's page locks (pageLocks=on): how many free pages its
 * per-CPU list holds (struct per_cpu_pages count) and the pages waiting in its LRU-add vector
 * (lru_add_pvec, cpu_fbatches.lru_add since 6.2). The free list is a count: it decides when the
 * zone lock is taken; the vector holds the pages themselves, which go onto the LRU list in order
 * ({@link PageListAllocation}, {@link ReleasePages}).
 */
final class PerCpuPages {
    /** Free pages on the per-CPU list. */
    int pcp;
    /** Pages in the LRU-add vector: the first {@code lruPagevec} of {@link #vector}. */
    int lruPagevec;
    /** The vector's pages, oldest first (PAGEVEC_SIZE at most, the knob pagevec). */
    LruPage[] vector = new LruPage[0];

    /** lru_cache_add(): {@code page} joins the vector; returns how many it holds now. */
    int add(LruPage page, int capacity) {
        if (vector.length < capacity) {
            vector = Arrays.copyOf(vector, capacity);
        }
        vector[lruPagevec] = page;
        return ++lruPagevec;
    }

    /** Empties the vector and returns its pages, oldest first. */
    LruPage[] takeVector() {
        LruPage[] pages = Arrays.copyOf(vector, lruPagevec);
        Arrays.fill(vector, 0, lruPagevec, null);
        lruPagevec = 0;
        return pages;
    }

    void clear() {
        pcp = 0;
        Arrays.fill(vector, 0, lruPagevec, null);
        lruPagevec = 0;
    }
}
