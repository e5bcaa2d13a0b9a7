package dev.pvtlb.internal.tlb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TlbTest {
    @Test
    void lookupIsTaggedByPcidAndInvalidationIsPrecise() {
        Tlb t = new Tlb(64, 4);
        t.fill(1, 0x100, 0xaaa1, 5);
        t.fill(2, 0x100, 0xbbb1, 6);
        assertEquals(0xaaa1, t.pte(t.lookup(1, 0x100)));
        assertEquals(0xbbb1, t.pte(t.lookup(2, 0x100)));
        assertEquals(-1, t.lookup(3, 0x100));
        assertTrue(t.invalidate(1, 0x100));
        assertEquals(-1, t.lookup(1, 0x100));
        assertEquals(1, t.size());
        t.fill(2, 0x101, 1, 7);
        t.fill(3, 0x101, 1, 7);
        t.flushPcid(2);
        assertEquals(1, t.size());
        assertEquals(-1, t.lookup(2, 0x100));
        assertEquals(-1, t.lookup(2, 0x101));
        assertTrue(t.lookup(3, 0x101) >= 0, "another PCID's entry stays");
        assertTrue(!t.invalidate(2, 0x101), "a flushed entry is not there to invalidate");
        t.fill(2, 0x100, 0xccc1, 8);
        assertEquals(0xccc1, t.pte(t.lookup(2, 0x100)), "a PCID flushed before is filled again");
        assertEquals(2, t.size());
    }

    @Test
    void aStaleCopyOfATagBehindItsRefillNeverAnswers() {
        Tlb t = new Tlb(4, 4); // one set
        t.fill(1, 0xa, 1, 0);
        t.fill(1, 0x7, 2, 0);
        t.flushPcid(1); // both stale; 0x7 stays in way 1
        t.fill(1, 0x7, 3, 5); // the first way with nothing valid: way 0
        assertEquals(3, t.pte(t.lookup(1, 0x7)));
        assertEquals(1, t.size());
        assertTrue(t.invalidate(1, 0x7));
        assertEquals(-1, t.lookup(1, 0x7), "the stale copy in way 1 is not a hit");
        assertTrue(!t.invalidate(1, 0x7), "nor something to invalidate");
        t.fill(1, 0x7, 4, 6);
        assertEquals(4, t.pte(t.lookup(1, 0x7)));
        assertEquals(1, t.size());
    }

    /**
     * A refill of a valid entry (the walk that sets the dirty bit of a clean one) replaces it, even
     * when an INVLPG emptied an earlier way meanwhile: a copy left behind came back after the next
     * INVLPG of the address (found by tlb-torture, a clean RW entry surviving mprotect's flush).
     */
    @Test
    void aRefillReplacesTheValidEntryItsTagHasAndOneInvlpgDropsIt() {
        Tlb t = new Tlb(4, 4); // one set
        t.fill(1, 0xa, 1, 0); // way 0
        t.fill(1, 0x6, 2, 0); // way 1: clean, writable
        assertTrue(t.invalidate(1, 0xa)); // way 0 empty
        t.fill(1, 0x6, 3, 5); // the dirty-bit walk's refill
        assertEquals(3, t.pte(t.lookup(1, 0x6)));
        assertEquals(1, t.size(), "one entry for the address, not two");
        assertTrue(t.invalidate(1, 0x6));
        assertEquals(-1, t.lookup(1, 0x6), "the INVLPG leaves no older copy to answer");
        assertEquals(0, t.size());
    }

    @Test
    void pcidsBeyondTheInlineEpochsFlushOnTheirOwn() {
        Tlb t = new Tlb(64, 4);
        t.fill(20, 0x100, 1, 0);
        t.fill(17, 0x100, 2, 0);
        t.fill(3, 0x100, 3, 0);
        t.flushPcid(20);
        assertEquals(-1, t.lookup(20, 0x100));
        assertEquals(2, t.pte(t.lookup(17, 0x100)));
        assertEquals(3, t.pte(t.lookup(3, 0x100)));
        t.fill(20, 0x100, 4, 1);
        assertEquals(4, t.pte(t.lookup(20, 0x100)));
        t.clear();
        assertEquals(0, t.size());
        t.fill(20, 0x100, 5, 2);
        assertEquals(5, t.pte(t.lookup(20, 0x100)), "a cleared TLB starts its epochs again");
    }

    /** clear() keeps the sets' storage: what the old entries' LRU stamps said must not steer evictions after it. */
    @Test
    void aClearedTlbEvictsAsANewOneDoes() {
        Tlb t = new Tlb(4, 4); // one set
        for (long v = 0; v < 4; v++) {
            t.fill(1, v, v, 0);
        }
        for (int k = 0; k < 10; k++) {
            t.lookup(1, 3); // way 3's stamp is far ahead of the others
        }
        t.clear();
        for (long v = 10; v < 14; v++) {
            t.fill(1, v, v, 0);
        }
        assertEquals(4, t.size());
        t.lookup(1, 10);
        t.fill(1, 20, 20, 0);
        assertEquals(-1, t.lookup(1, 11), "vpn 11 was the least recently used since the clear");
        assertTrue(t.lookup(1, 13) >= 0);
        assertTrue(t.lookup(1, 20) >= 0);
        assertEquals(-1, t.lookup(1, 3), "nothing from before the clear");
    }

    @Test
    void aFullSetEvictsItsLeastRecentlyUsedWay() {
        Tlb t = new Tlb(4, 4); // one set
        for (long v = 0; v < 4; v++) {
            t.fill(1, v, v, 0);
        }
        t.lookup(1, 0);
        t.fill(1, 9, 9, 0);
        assertEquals(-1, t.lookup(1, 1), "vpn 1 was least recently used");
        assertTrue(t.lookup(1, 0) >= 0);
        assertEquals(4, t.size());
    }

    @Test
    void geometryMustBePowerOfTwoSets() {
        assertThrows(IllegalArgumentException.class, () -> new Tlb(1536, 7));
        assertEquals(1536, new Tlb(1536, 12).capacity());
    }
}
