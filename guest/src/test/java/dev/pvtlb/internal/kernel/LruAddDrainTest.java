package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.scenario.Scripted;
import org.junit.jupiter.api.Test;

/**
 * lru_add_drain() at the start of an unmap (lruAddDrain, with pageLocks=on), the LRU-add vector's
 * size (pagevec) and the vector's reference to the pages it holds, on x86-skylake:
 * page.lru_lock.page.ns 30, line.local.ns 5, page.pcp.batch 63.
 */
class LruAddDrainTest {
    private static Scripted guest(boolean drain, int pagevec) {
        return new Scripted(GuestConfig.builder().cpus(1).seed(1).knob("pageLocks", "on")
                .knob("lruAddDrain", String.valueOf(drain)).knob("pagevec", String.valueOf(pagevec)).build());
    }

    private static long[] faultThenDontneed(boolean drain, int pages) {
        return faultThenDontneed(drain, pages, 15);
    }

    /**
     * The end of a run on one CPU that faults {@code pages} pages in and then madvise(MADV_DONTNEED)s
     * them, and the pages its LRU-add vector holds then.
     */
    private static long[] faultThenDontneed(boolean drain, int pages, int pagevec) {
        Scripted s = guest(drain, pagevec);
        long b = s.map(1, pages);
        s.spawn(0, Scripted.populate(b, pages), s.madvise(b, pages));
        s.run();
        return new long[] {s.guest.engine().now(), s.guest.cpus()[0].pages.lruPagevec};
    }

    @Test
    void anUnmapFirstPutsThePagesLeftInTheCpusLruAddVectorOnTheLru() {
        // 5 faults leave 5 pages in the vector (a fault drains it only when it fills, at 15).
        long[] with = faultThenDontneed(true, 5);
        long[] without = faultThenDontneed(false, 5);
        assertEquals(0, with[1], "lru_add_drain() emptied the vector");
        assertEquals(5, without[1], "without it the pages wait for the vector to fill");
        // The drain holds lru_lock for the 5 pages (5 x 30 ns) and writes the lock word to take and to
        // release it and the LRU's size counters (PageLists.LRU_HOT_LINES), each line.local.ns (5 ns):
        // no other CPU has had them, so the list's links cost nothing beyond the hold. The unmap then
        // takes the 5 pages off the list in another such hold. Without the drain the vector still
        // holds a reference to each page: the unmap frees none of them and takes no lock.
        assertEquals(2 * (5 * 30 + 3 * 5), with[0] - without[0]);
    }

    @Test
    void anEmptyVectorIsNotDrained() {
        // The 15th fault fills the vector and __pagevec_lru_add() empties it: nothing is left to drain.
        long[] with = faultThenDontneed(true, 15);
        long[] without = faultThenDontneed(false, 15);
        assertEquals(0, with[1]);
        assertEquals(0, without[1]);
        assertEquals(without[0], with[0]);
    }

    @Test
    void since69TheVectorHoldsThirtyOnePages() {
        // pagevec=31: the 15th fault no longer fills the vector, so the 15 pages are still in it at the
        // madvise, which drains them (15 x 30 ns held, the lock word's two 5-ns writes and the counters')
        // and takes them off the list again; without the drain neither hold happens.
        long[] with = faultThenDontneed(true, 15, 31);
        long[] without = faultThenDontneed(false, 15, 31);
        assertEquals(0, with[1]);
        assertEquals(15, without[1]);
        assertEquals(2 * (15 * 30 + 3 * 5), with[0] - without[0]);
        // The 31st fault fills it: 31 pages in one hold, where pagevec=15 takes the lock twice for 30 of them.
        assertEquals(0, faultThenDontneed(false, 31, 31)[1]);
        assertEquals(1, faultThenDontneed(false, 31, 15)[1]);
    }

    @Test
    void aPageUnmappedWhileTheVectorHoldsItIsFreedWhenTheVectorDrains() {
        // 5 faults, madvise(MADV_DONTNEED) of those 5 pages, 10 more faults: the 15th page fills the
        // vector. Its 15 pages go onto the LRU, then the vector drops its references, the last ones of
        // the 5 unmapped pages: they come off the list again and go to the CPU's free list.
        Scripted s = guest(false, 15);
        long b = s.map(1, 15);
        s.spawn(0, Scripted.populate(b, 5), s.madvise(b, 5), Scripted.populate(b + 5 * 4096L, 10));
        s.run();
        KernelCpu cpu = s.guest.cpus()[0];
        assertEquals(0, cpu.pages.lruPagevec);
        assertEquals(10, s.guest.pageLists(cpu.socket()).lruList.size(), "the 10 pages still mapped are on the LRU");
        // rmqueue_bulk() gave the free list 63 pages at the first fault; 15 faults took 15, the drain gave 5 back.
        assertEquals(63 - 15 + 5, cpu.pages.pcp);
    }

    @Test
    void anUnmapTakesEachPageOffTheLruOfTheNodeItCameFrom() {
        // Two sockets of one CPU each. CPU 1 faults 5 pages of the region (node 1) and puts them on its
        // node's LRU (the drain of an madvise of a page it never touched); CPU 0 faults the other 5
        // (node 0), then madvise()s all 10: its drain puts its 5 on node 0's list, and release_pages()
        // takes each page off the list of its own node.
        Scripted s = new Scripted(GuestConfig.builder().topology(new dev.pvtlb.smp.Topology(2, 1, 1)).seed(1)
                .knob("pageLocks", "on").knob("lruAddDrain", "true").knob("pagevec", "15").build());
        long b = s.map(1, 10);
        long other = s.map(2, 1);
        s.spawn(1, Scripted.populate(b + 5 * 4096L, 5), s.madvise(other, 1));
        s.spawn(0, Scripted.populate(b, 5), Scripted.sleep(1_000_000), s.madvise(b, 10));
        s.run();
        KernelCpu cpu0 = s.guest.cpus()[0];
        KernelCpu cpu1 = s.guest.cpus()[1];
        assertEquals(0, s.guest.pageLists(0).lruList.size());
        assertEquals(0, s.guest.pageLists(1).lruList.size());
        // The freed pages go to the freeing CPU's free list: 63 refilled, 5 taken, 10 back.
        assertEquals(63 - 5 + 10, cpu0.pages.pcp);
        assertEquals(63 - 5, cpu1.pages.pcp);
    }
}
