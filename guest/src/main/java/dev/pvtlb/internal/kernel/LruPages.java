package dev.pvtlb.internal.kernel;

import java.util.HashMap;
import java.util.Map;

/**
 * The machine's data pages in an LRU-add vector or on an LRU list (pageLocks=on), by frame: what
 * an unmap's release_pages() finds from the frames it freed (page_folio() of each).
 */
final class LruPages {
    private final Map<Integer, LruPage> byFrame = new HashMap<>();

    /** Frame {@code pfn} was allocated on node {@code node} for a fault: its page, not yet on the node's list. */
    LruPage allocated(int pfn, int node) {
        LruPage page = new LruPage(node);
        byFrame.put(pfn, page);
        return page;
    }

    /** Frame {@code pfn} goes back to the allocator: its page, or null when none was made for it. */
    LruPage freed(int pfn) {
        return byFrame.remove(pfn);
    }

    /** A guest reset: no page left. */
    void clear() {
        byFrame.clear();
    }
}
