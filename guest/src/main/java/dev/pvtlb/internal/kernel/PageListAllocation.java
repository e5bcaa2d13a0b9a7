package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.profile.Costs;

/**
 * The fault side of a node's page locks (pageLocks=on, {@link PageLists}): rmqueue_bulk(), which
 * refills an empty per-CPU free list under {@code zone->lock}, and lru_cache_add(), which puts the
 * new page in the CPU's LRU-add vector and adds a full vector to the LRU ({@link PagevecLruAdd}),
 * as lru_add_drain() adds what a vector holds at an unmap ({@link #drain}). The free side is
 * {@link ReleasePages}.
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
        PageLists node = cpu.kernel().pageLists(cpu.socket());
        cpu.call(new SpinLockedSection("rmqueue_bulk", node.zone, c.zoneLockPage.times(c.pcpBatch),
                () -> cpu.pages.pcp += c.pcpBatch));
        return true;
    }

    /**
     * A fault took frame {@code pfn} from {@code cpu}'s list and mapped it: lru_cache_add(), which
     * puts the page in the vector and adds a full vector to the LRU.
     */
    static void tookAndAdded(KernelCpu cpu, int pfn) {
        cpu.pages.pcp--;
        Kernel g = cpu.kernel();
        int pagevec = g.knobs().pagevec;
        PageLists node = g.pageLists(cpu.socket());
        if (cpu.pages.add(node.pages.allocated(pfn, node.node), pagevec) < pagevec) {
            return;
        }
        cpu.call(new PagevecLruAdd("__pagevec_lru_add", cpu.pages.takeVector()));
    }

    /**
     * lru_add_drain(): when {@code cpu}'s LRU-add vector holds pages, pushes their move onto the
     * LRU and returns true (the caller's step runs again after it); false for an empty vector.
     */
    static boolean drain(KernelCpu cpu) {
        if (cpu.pages.lruPagevec == 0) {
            return false;
        }
        cpu.call(new PagevecLruAdd("lru_add_drain", cpu.pages.takeVector()));
        return true;
    }
}
