package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.profile.Costs;

/**
 * The fault side of a node's page locks (pageLocks=on, {@link PageLists}): rmqueue_bulk(), which
 * refills an empty per-CPU free list under {@code zone->lock}, and lru_cache_add(), which adds a
 * full page vector to the LRU under {@code lru_lock} (__pagevec_lru_add()), as lru_add_drain()
 * adds what a vector holds at an unmap ({@link #drain}). The free side is {@link ReleasePages}.
 */
final class PageListAllocation {
    private PageListAllocation() {
    }

    /**
     * Before a fault takes a page from {@code cpu}'s list: when the list is empty, pushes the
     * refill (rmqueue_bulk()) and returns true, and the fault's step runs again after it.
     */
    static boolean refillFirst(KernelCpu cpu) {
        if (cpu.pages.pcp > 0) {
            return false;
        }
        Costs c = cpu.kernel().costs();
        PageLists node = cpu.kernel().pageLists(cpu);
        cpu.call(new SpinLockedSection("rmqueue_bulk", node.zone, c.zoneLockPage.times(c.pcpBatch),
                () -> cpu.pages.pcp += c.pcpBatch));
        return true;
    }

    /** A fault took a page from {@code cpu}'s list and mapped it: lru_cache_add(), which drains a full vector. */
    static void tookAndAdded(KernelCpu cpu) {
        cpu.pages.pcp--;
        if (++cpu.pages.lruPagevec < cpu.kernel().knobs().pagevec) {
            return;
        }
        addToLru(cpu, "__pagevec_lru_add");
    }

    /**
     * lru_add_drain(): when {@code cpu}'s LRU-add vector holds pages, pushes their move onto the
     * LRU and returns true (the caller's step runs again after it); false for an empty vector.
     */
    static boolean drain(KernelCpu cpu) {
        if (cpu.pages.lruPagevec == 0) {
            return false;
        }
        addToLru(cpu, "lru_add_drain");
        return true;
    }

    /**
     * The vector's pages onto the node's LRU in one hold of lru_lock (__pagevec_lru_add()),
     * page.lru_lock.page.ns per page; the vector is empty after.
     */
    private static void addToLru(KernelCpu cpu, String name) {
        int held = cpu.pages.lruPagevec;
        cpu.pages.lruPagevec = 0;
        Costs c = cpu.kernel().costs();
        cpu.call(new SpinLockedSection(name, cpu.kernel().pageLists(cpu).lru, c.lruLockPage.times(held), () -> {}));
    }
}
