package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.scenario.Scripted;
import org.junit.jupiter.api.Test;

/**
 * The LRU list's links as include/linux/list.h writes them, priced as cache lines: two CPUs of one
 * socket, x86-skylake (line.local.ns a hit, line.same_socket.ns a transfer between cores).
 */
class LruListTest {
    private final Kernel g = new Scripted(GuestConfig.builder().cpus(2).seed(1).build()).guest;
    private final CpuLines a = g.cpus()[0].lines;
    private final CpuLines b = g.cpus()[1].lines;
    private final long hit = g.costs().lineLocalNs;
    /** What a store to a line the other core wrote last costs beyond a hit. */
    private final long fetch = g.costs().lineSameSocketNs - hit;
    private final LruList list = new LruList();

    private LruPage page() {
        return new LruPage(0);
    }

    @Test
    void anAddNextToAnotherCpusPageFetchesTheHeadAndThatPage() {
        LruPage p0 = page();
        LruPage p1 = page();
        assertEquals(0, list.add(a, p0, 0), "lines nobody had: first touches, hits");
        // list_add() of p1 writes the head and p0's prev, both a's, and p1's own line (new).
        assertEquals(2 * fetch, list.add(b, p1, 1000));
        assertEquals(2, list.size());
        assertTrue(p0.onList());
    }

    @Test
    void aDeleteWritesBothNeighboursAndThePageItself() {
        LruPage p0 = page();
        LruPage p1 = page();
        list.add(a, p0, 0);
        list.add(b, p1, 1000);
        // head -> p1 -> p0 -> head: list_del(p0) writes the head (next) and p1 (prev), b's since its add,
        // and p0's own line, whose prev b's add wrote.
        assertEquals(3 * fetch, list.del(a, p0, 2000));
        assertFalse(p0.onList());
        // head -> p1 -> head: both neighbours are the head, a's now (one fetch, then a hit); p1's line is
        // a's too (p0's list_del() wrote its next).
        assertEquals(2 * fetch, list.del(b, p1, 3000));
        assertEquals(0, list.size());
    }

    @Test
    void pagesOneCpuAddedTogetherComeOffWithHitsOnly() {
        LruPage other = page();
        list.add(b, other, 0);
        LruPage[] batch = {page(), page(), page()};
        long cost = 0;
        for (LruPage p : batch) {
            cost += list.add(a, p, 1000);
        }
        assertEquals(2 * fetch, cost, "the head and the first page of the other CPU's, once each");
        // Taken off in the order they were added, as release_pages() goes through a vector: every
        // neighbour is a's, the other CPU's page included, whose line a's first add fetched.
        cost = 0;
        for (LruPage p : batch) {
            cost += list.del(a, p, 2000);
        }
        assertEquals(0, cost);
        assertEquals(1, list.size());
    }
}
