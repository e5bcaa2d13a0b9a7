package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.profile.Costs;

/**
 * One NUMA node's (socket's) page locks, with pageLocks=on, as Linux 5.2 takes them for
 * anonymous memory: {@code zone->lock}, which a CPU takes to refill its per-CPU free list
 * (rmqueue_bulk(), from __rmqueue_pcplist() when the list is empty) and to give a batch back
 * (free_pcppages_bulk(), from free_unref_page_commit() when the list reaches pcp->high), and
 * {@code pgdat->lru_lock}, taken to add a full page vector to the LRU (__pagevec_lru_add()) and to
 * take freed pages off it (release_pages(), every SWAP_CLUSTER_MAX pages). All are taken with
 * IRQs off. The per-CPU counts live on the CPU ({@link PerCpuPages},
 * one per CPU); the lists' contents are not modelled, only how often the locks
 * are taken and for how long ({@link Costs#pcpBatch} and the per-page hold times). A fault takes
 * them in {@link PageListAllocation}, a free in {@link ReleasePages}.
 */
final class PageLists {
    final QueuedSpinLock<KernelCpu> zone = new QueuedSpinLock<>("zone->lock");
    final QueuedSpinLock<KernelCpu> lru = new QueuedSpinLock<>("lru_lock");

    /** For a new run on the same guest. */
    void reset() {
        zone.reset();
        lru.reset();
    }
}
