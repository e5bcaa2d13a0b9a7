package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.profile.Costs;

/**
 * One NUMA node's (socket's) page locks, with pageLocks=on, as Linux 5.2 takes them for
 * anonymous memory: {@code zone->lock}, which a CPU takes to refill its per-CPU free list
 * (rmqueue_bulk(), from __rmqueue_pcplist() when the list is empty) and to give a batch back
 * (free_pcppages_bulk(), from free_unref_page_commit() when the list reaches pcp->high), and
 * {@code pgdat->lru_lock}, taken to add a full page vector to the LRU (__pagevec_lru_add()) and to
 * take freed pages off it (release_pages(), every SWAP_CLUSTER_MAX pages). All are taken with
 * IRQs off. The per-CPU caches live on the CPU ({@link PerCpuPages}, one per CPU). The LRU is a
 * list of the node's pages ({@link #lruList}), whose links each hold writes; the free lists'
 * contents are not modelled, only how often zone->lock is taken, for how long
 * ({@link Costs#pcpBatch} and the per-page hold times) and which of the zone's cache lines every
 * hold writes (a hold after another CPU's moves them). A fault takes them in
 * {@link PageListAllocation}, a free in {@link ReleasePages}.
 */
final class PageLists {
    /**
     * Every hold writes the zone's hot lines: the free list heads of the order it takes from or
     * gives back to (zone->free_area[order].free_list[], 96 bytes of list heads) and that order's
     * nr_free beside them, two lines (mm/page_alloc.c, __rmqueue() and __free_one_page()).
     */
    final QueuedSpinLock<KernelCpu> zone = new QueuedSpinLock<>("zone->lock", ZONE_HOT_LINES);
    /**
     * Every hold writes the lruvec's size counters (update_lru_size(): lruvec->lru_zone_size and
     * the memcg's per-node counts), one line; the list's own lines are written by its operations
     * ({@link LruList}). A hold after another CPU's moves them (mm/swap.c, include/linux/mm_inline.h).
     */
    final QueuedSpinLock<KernelCpu> lru = new QueuedSpinLock<>("lru_lock", LRU_HOT_LINES);
    /** The node's LRU list, under {@link #lru}. */
    final LruList lruList = new LruList();
    /** This node's number (its socket). */
    final int node;
    /** The machine's pages on an LRU or in a vector, by frame (every node's, shared). */
    final LruPages pages;

    PageLists(int node, LruPages pages) {
        this.node = node;
        this.pages = pages;
    }

    static final int LRU_HOT_LINES = 1;
    static final int ZONE_HOT_LINES = 2;

    /** For a new run on the same guest. */
    void reset() {
        zone.reset();
        lru.reset();
        lruList.reset();
    }
}
