package dev.pvtlb.internal.kernel;

/**
 * One node's LRU list of anonymous pages (lruvec->lists[], mm/swap.c and include/linux/mm_inline.h)
 * as include/linux/list.h links it, so that each operation under {@code lru_lock} writes the
 * cache lines list.h writes: list_add() at the head (lruvec_add_folio(), add_page_to_lru_list())
 * writes the head, the new page's struct page and the old first page's (its prev);
 * __list_del() (lruvec_del_folio(), del_page_from_lru_list()) writes the struct pages of both
 * neighbours and the page's own (list_del() poisons its links, __ClearPageLRU() its flags). A
 * neighbour another CPU added or took off last is fetched from that CPU's cache; pages a CPU added
 * in one batch sit side by side, so taking them off again costs only hits.
 *
 * <p>Each write costs only what it takes beyond a cache hit: the work of a list operation in
 * cache is the profile's per-page hold time, {@code page.lru_lock.page.ns}.
 */
final class LruList {
    /** The list head in the lruvec: its line is the one every add and every removal next to the head writes. */
    private final LruPage head = new LruPage(-1);

    LruList() {
        reset();
    }

    /** list_add(&page->lru, head) by the CPU of {@code cpu} at {@code now}; returns what its three stores cost beyond a hit each, in ns. */
    long add(CpuLines cpu, LruPage page, long now) {
        LruPage first = head.next;
        first.prev = page;
        page.next = first;
        page.prev = head;
        head.next = page;
        return stores(cpu, now, first, page, head);
    }

    /** list_del(&page->lru) by the CPU of {@code cpu} at {@code now}; returns what its three stores cost beyond a hit each, in ns. */
    long del(CpuLines cpu, LruPage page, long now) {
        LruPage before = page.prev;
        LruPage after = page.next;
        after.prev = before;
        before.next = after;
        page.prev = null;
        page.next = null;
        return stores(cpu, now, after, before, page);
    }

    /** The three stores of one list operation, to the struct pages (or the head) {@code a}, {@code b}, {@code c}: their cost beyond a hit each. */
    private static long stores(CpuLines cpu, long now, LruPage a, LruPage b, LruPage c) {
        return cpu.writeBeyondHit(a.line, now) + cpu.writeBeyondHit(b.line, now) + cpu.writeBeyondHit(c.line, now);
    }

    /** The pages on the list (a walk of it, for tests). */
    int size() {
        int n = 0;
        for (LruPage p = head.next; p != head; p = p.next) {
            n++;
        }
        return n;
    }

    /** For a new run on the same guest: an empty list whose head no CPU has touched. */
    void reset() {
        head.prev = head;
        head.next = head;
        head.line.reset();
    }
}
