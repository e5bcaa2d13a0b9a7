package dev.pvtlb.internal.cache;

import java.util.Arrays;

/**
 * One level of a set-associative cache, tags only, least recently used replaced: what the model
 * needs to know is whether a line (or a translation) is still held, not its data. Each set keeps
 * its ways in recency order, most recent first, so a hit moves the tag to the front and a miss
 * drops the last way.
 *
 * <p>The set index is a hash of the key, not its low bits. The model's accesses are page-granular
 * (most workloads touch a page at offset 0), and a hardware index taken from address bits 6..11
 * would put all of them in one L1 set; hashing spreads them as a program's varied offsets do (and
 * as the LLC's slice hash does for physical addresses, Intel's undocumented "complex addressing").
 */
public final class SetAssociativeCache {
    private static final long EMPTY = Long.MIN_VALUE;
    private final int ways;
    private final int setMask;
    private final int setShift;
    private final long[] tags;

    /** {@code lines} entries (rounded down to whole sets of a power-of-two count), {@code ways} per set. */
    public SetAssociativeCache(int lines, int ways) {
        if (ways < 1 || lines < ways) {
            throw new IllegalArgumentException("a cache needs at least one set of " + ways + " ways, got " + lines + " lines");
        }
        int sets = Integer.highestOneBit(lines / ways);
        this.ways = ways;
        this.setMask = sets - 1;
        this.setShift = 64 - Integer.numberOfTrailingZeros(sets);
        this.tags = new long[sets * ways];
        clear();
    }

    /** How many keys it can hold. */
    public int capacity() {
        return tags.length;
    }

    /** Empties every set (a full invalidation; a new run). */
    public void clear() {
        Arrays.fill(tags, EMPTY);
    }

    /**
     * Looks {@code key} up and makes it the most recent of its set: true on a hit; on a miss the
     * key is filled, evicting the set's least recently used key.
     */
    public boolean access(long key) {
        int base = set(key) * ways;
        long[] t = tags;
        int i = base;
        int end = base + ways;
        while (i < end && t[i] != key) {
            i++;
        }
        boolean hit = i < end;
        if (!hit) {
            i = end - 1;
        }
        // Move-to-front: ways before i shift back by one.
        System.arraycopy(t, base, t, base + 1, i - base);
        t[base] = key;
        return hit;
    }

    /** Whether {@code key} is held, without touching its recency. */
    public boolean holds(long key) {
        int base = set(key) * ways;
        for (int i = base; i < base + ways; i++) {
            if (tags[i] == key) {
                return true;
            }
        }
        return false;
    }

    private int set(long key) {
        if (setMask == 0) {
            return 0;
        }
        // Fibonacci hashing: the top bits of key * 2^64/phi.
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> setShift) & setMask;
    }
}
