package dev.pvtlb.internal.cache;

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
 *
 * <p>Cheap to hold and to empty, since every CPU has several and the explorer empties them before
 * each schedule: a large cache's tags are allocated a block of sets at a time, when a set of the
 * block is first used (the LLC of a 1024-core socket is 256 MiB of tags, of which a run touches
 * little), and {@link #clear()} only draws a new salt: a tag is stored XOR the salt of its epoch,
 * so a tag of an older epoch matches no key (up to a 2^-64 coincidence) and is evicted in its turn,
 * as an empty way would be filled. A block is left as allocated, zeros: every salt has its top bit
 * set and keys are below 2^63, so no key's tag is zero, and filling a new block with a
 * non-matching value first (a pass that took a tenth of a 1024-CPU run's time) changes nothing.
 */
public final class SetAssociativeCache {
    /** Caches up to this many tags are allocated whole. */
    private static final int WHOLE = 1 << 16;
    /** Sets per block of tags. */
    private static final int BLOCK_SHIFT = 8;
    private final int ways;
    private final int sets;
    private final int setMask;
    private final int setShift;
    private final int blockShift;
    private final long[][] blocks;
    private long salt;
    private long epoch;

    /** {@code lines} entries (rounded down to whole sets of a power-of-two count), {@code ways} per set. */
    public SetAssociativeCache(int lines, int ways) {
        if (ways < 1 || lines < ways) {
            throw new IllegalArgumentException("a cache needs at least one set of " + ways + " ways, got " + lines + " lines");
        }
        this.sets = Integer.highestOneBit(lines / ways);
        this.ways = ways;
        this.setMask = sets - 1;
        this.setShift = 64 - Integer.numberOfTrailingZeros(sets);
        this.blockShift = (long) sets * ways <= WHOLE ? 31 : BLOCK_SHIFT;
        this.blocks = new long[blockShift == 31 ? 1 : (sets >>> BLOCK_SHIFT) + 1][];
        clear();
    }

    /** How many keys it can hold. */
    public int capacity() {
        return sets * ways;
    }

    /** Empties every set (a full invalidation; a new run). */
    public void clear() {
        // A fixed sequence of salts (SplitMix64's), so runs stay deterministic.
        epoch++;
        long z = epoch * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        salt = z ^ (z >>> 31) | Long.MIN_VALUE;
        if (blockShift == 31 && blocks[0] == null) {
            blocks[0] = new long[sets * ways];
        }
    }

    /**
     * Looks {@code key} up and makes it the most recent of its set: true on a hit; on a miss the
     * key is filled, evicting the set's least recently used key.
     */
    public boolean access(long key) {
        int set = set(key);
        long[] t = tags(set);
        int base = (set & ((1 << blockShift) - 1)) * ways;
        long tag = key ^ salt;
        if (t[base] == tag) {
            return true; // already the most recent: nothing moves
        }
        int end = base + ways;
        int i = base + 1;
        while (i < end && t[i] != tag) {
            i++;
        }
        boolean hit = i < end;
        if (!hit) {
            i = end - 1;
        }
        // Move-to-front: the ways before i shift back by one.
        for (int j = i; j > base; j--) {
            t[j] = t[j - 1];
        }
        t[base] = tag;
        return hit;
    }

    /** Whether {@code key} is held, without touching its recency. */
    public boolean holds(long key) {
        int set = set(key);
        long[] t = tags(set);
        int base = (set & ((1 << blockShift) - 1)) * ways;
        long tag = key ^ salt;
        for (int i = base; i < base + ways; i++) {
            if (t[i] == tag) {
                return true;
            }
        }
        return false;
    }

    /** The block holding {@code set}'s tags (allocated when first used, its ways zero: matching no key). */
    private long[] tags(int set) {
        long[] t = blocks[set >>> blockShift];
        if (t == null) {
            t = blocks[set >>> blockShift] = new long[(1 << BLOCK_SHIFT) * ways];
        }
        return t;
    }

    private int set(long key) {
        if (setMask == 0) {
            return 0;
        }
        // Fibonacci hashing: the top bits of key * 2^64/phi.
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> setShift) & setMask;
    }
}
