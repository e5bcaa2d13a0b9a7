package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.ContendedLine;
import dev.pvtlb.stats.CostPart;

/**
 * A data page as the LRU sees it (pageLocks=on): the cache line of its struct page, which holds
 * its {@code lru} links and flags, its place on its node's LRU list (PageLists.lruList), and
 * whether an unmap freed it while a CPU's LRU-add vector still held it. A page joins a vector at
 * its fault (lru_cache_add(), which takes a reference for the vector: get_page() in 5.2,
 * folio_get() in folio_batch_add_and_move()), goes onto the list when the vector drains, and comes
 * off when its last reference goes (release_pages(), folios_put_refs()).
 */
final class LruPage {
    /** The node the page was allocated on: its LRU list and the lru_lock its list operations take. */
    final int node;
    /** The struct page's line: page->lru and page->flags, one 64-byte struct page. */
    final ContendedLine line = new ContendedLine(CostPart.LINES_LOCKED_DATA);
    /** The neighbours on the list; both null while the page is off it. */
    LruPage prev;
    LruPage next;
    /**
     * The unmap dropped the mapping's reference while a vector held the page: the vector's is the
     * last, so the page is freed when the vector drains, not at the unmap (put_page_testzero() in
     * release_pages() leaves it alone).
     */
    boolean unmapped;

    LruPage(int node) {
        this.node = node;
    }

    boolean onList() {
        return next != null;
    }
}
