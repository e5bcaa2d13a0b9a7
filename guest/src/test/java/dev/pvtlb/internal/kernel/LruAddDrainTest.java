package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.scenario.Scripted;
import org.junit.jupiter.api.Test;

/**
 * lru_add_drain() at the start of an unmap (lruAddDrain, with pageLocks=on), on x86-skylake:
 * page.pagevec 15, page.lru_lock.page.ns 30, line.local.ns 5.
 */
class LruAddDrainTest {
    private static Scripted guest(boolean drain) {
        return new Scripted(GuestConfig.builder().cpus(1).seed(1)
                .knob("pageLocks", "on").knob("lruAddDrain", String.valueOf(drain)).build());
    }

    /** The end of a run on one CPU that faults {@code pages} pages in and then madvise(MADV_DONTNEED)s them. */
    private static long[] faultThenDontneed(boolean drain, int pages) {
        Scripted s = guest(drain);
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
        // The drain holds lru_lock for the 5 pages (5 x 30 ns), and writes the lock word to take and to
        // release it, each line.local.ns (5 ns): no other CPU has had the line (the take is its first touch).
        assertEquals(160, with[0] - without[0]);
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
}
