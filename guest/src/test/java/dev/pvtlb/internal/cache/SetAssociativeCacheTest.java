package dev.pvtlb.internal.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SetAssociativeCacheTest {
    @Test
    void aFullSetEvictsItsLeastRecentlyUsedKey() {
        SetAssociativeCache c = new SetAssociativeCache(4, 4);
        for (long k = 1; k <= 4; k++) {
            assertFalse(c.access(k), "cold miss " + k);
        }
        assertTrue(c.access(1), "1 is held, and now the most recent");
        assertFalse(c.access(5), "a fifth key misses and evicts the least recent, 2");
        assertFalse(c.holds(2));
        assertTrue(c.holds(1));
        assertTrue(c.holds(3));
        assertTrue(c.holds(4));
        assertTrue(c.holds(5));
    }

    @Test
    void cyclingThroughMoreKeysThanWaysNeverHits() {
        // LRU's worst case: five keys in turn through a 4-way set, each evicted just before its reuse.
        SetAssociativeCache c = new SetAssociativeCache(4, 4);
        int hits = 0;
        for (int round = 0; round < 10; round++) {
            for (long k = 0; k < 5; k++) {
                hits += c.access(k) ? 1 : 0;
            }
        }
        assertEquals(0, hits);
    }

    @Test
    void capacityIsAPowerOfTwoNumberOfWholeSets() {
        assertEquals(512, new SetAssociativeCache(512, 8).capacity());
        assertEquals(64, new SetAssociativeCache(100, 8).capacity(), "100 lines of 8 ways: 12 sets, rounded down to 8");
        assertThrows(IllegalArgumentException.class, () -> new SetAssociativeCache(4, 8));
    }

    @Test
    void aWorkingSetThatFitsHitsAfterItsFirstPass() {
        // 256 keys in a 512-line, 8-way cache: the hash spreads them over 64 sets, none overfull
        // by more than its ways, so the second pass hits every one.
        SetAssociativeCache c = new SetAssociativeCache(512, 8);
        int misses = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (long k = 0; k < 256; k++) {
                misses += c.access(k << 6) ? 0 : 1;
            }
        }
        assertEquals(256, misses);
        c.clear();
        assertFalse(c.holds(0));
    }

    @Test
    void aLargeCachesSetsGrowAsTheyFillAndBehaveAsWholeOnes() {
        // The same 1024 sets of 16 ways, kept whole and as per-set arrays, through 200000 accesses
        // of 40000 keys (a few sets overfull, most not) and a clear in the middle: the same hit or
        // miss every time, and the same keys held at the end.
        SetAssociativeCache whole = new SetAssociativeCache(16384, 16, false);
        SetAssociativeCache perSet = new SetAssociativeCache(16384, 16, true);
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        int hits = 0;
        for (int i = 0; i < 200_000; i++) {
            if (i == 100_000) {
                whole.clear();
                perSet.clear();
            }
            long key = r.nextInt(i < 100_000 ? 40_000 : 8_000);
            boolean h = whole.access(key);
            assertEquals(h, perSet.access(key), "access " + i + " of key " + key);
            hits += h ? 1 : 0;
        }
        // 8000 keys fit in 16384 lines: after the clear, all but the first touch of each hits.
        assertEquals(128_749, hits);
        for (long k = 0; k < 40_000; k++) {
            assertEquals(whole.holds(k), perSet.holds(k), "key " + k);
        }
    }

    @Test
    void aClearedLargeCacheHoldsNothingAndRefills() {
        SetAssociativeCache c = new SetAssociativeCache(1 << 20, 16);
        assertFalse(c.access(42));
        assertTrue(c.access(42));
        c.clear();
        assertFalse(c.holds(42));
        assertFalse(c.access(42), "a miss after the clear, filling again");
        assertTrue(c.holds(42));
    }

    @ParameterizedTest(name = "{0} lines, {1} ways")
    @CsvSource({"512, 8", "64, 4", "8, 8", "16, 1", "96, 3"})
    void aSmallCachesPackedRecencyHoldsWhatOrderedWaysHold(int lines, int ways) {
        // The packed form (fingerprints and a recency word) against the per-set arrays, which keep
        // their ways in recency order: the same hit or miss every time, through a clear.
        SetAssociativeCache packed = new SetAssociativeCache(lines, ways, false);
        SetAssociativeCache ordered = new SetAssociativeCache(lines, ways, true);
        java.util.SplittableRandom r = new java.util.SplittableRandom(11);
        int hits = 0;
        for (int i = 0; i < 100_000; i++) {
            if (i == 50_000) {
                packed.clear();
                ordered.clear();
            }
            long key = r.nextInt(lines * 3) * 64L;
            boolean h = packed.access(key);
            assertEquals(h, ordered.access(key), "access " + i + " of key " + key);
            assertEquals(ordered.holds(key), packed.holds(key));
            hits += h ? 1 : 0;
        }
        assertTrue(hits > 10_000 && hits < 90_000, "both hits and misses: " + hits);
    }
}
