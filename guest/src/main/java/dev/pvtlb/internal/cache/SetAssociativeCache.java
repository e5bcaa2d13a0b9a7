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
 * each schedule. {@link #clear()} only draws a new salt: a tag is stored XOR the salt of its epoch,
 * so a tag of an older epoch matches no key (up to a 2^-64 coincidence) and is evicted in its turn,
 * as an empty way would be. Every salt has its top bit set and keys are below 2^63, so no tag is
 * zero, and zero is an empty way. A set's current tags are always a prefix of its ways (a fill goes
 * to the front and a hit moves to the front; empty and older ways only ever move back), which is
 * why the tail of a set need not exist until a fill reaches it.
 *
 * <p>A large cache (the LLC of a 1024-core socket is 16 Mi lines) keeps each set as its own array,
 * allocated at the first fill and grown (1, 2, 4 .. ways) as fills reach its tail: a run touches
 * a few hundred thousand lines of it, and whole blocks of ways allocated for each touched set made
 * a 1024-CPU run spend over a quarter of its time in young collections (JFR: 4.1 s of pauses in
 * 14.3 s of bench flush-storm-1024).
 */
public final class SetAssociativeCache {
    /** Caches of up to this many lines are allocated whole. */
    private static final int WHOLE = 1 << 16;
    private final int ways;
    private final int sets;
    private final int setMask;
    private final int setShift;
    /** A small cache's tags, set after set; null for a large one. */
    private final long[] whole;
    /** A large cache's sets, each null until first filled, then as long as its filled ways (rounded up to a power of two). */
    private final long[][] perSet;
    private long salt;
    private long epoch;

    /** {@code lines} entries (rounded down to whole sets of a power-of-two count), {@code ways} per set. */
    public SetAssociativeCache(int lines, int ways) {
        this(lines, ways, lines > WHOLE);
    }

    /** As above, with the storage chosen: {@code perSetArrays} as a large cache's, else whole. */
    SetAssociativeCache(int lines, int ways, boolean perSetArrays) {
        if (ways < 1 || lines < ways) {
            throw new IllegalArgumentException("a cache needs at least one set of " + ways + " ways, got " + lines + " lines");
        }
        this.sets = Integer.highestOneBit(lines / ways);
        this.ways = ways;
        this.setMask = sets - 1;
        this.setShift = 64 - Integer.numberOfTrailingZeros(sets);
        this.whole = perSetArrays ? null : new long[sets * ways];
        this.perSet = perSetArrays ? new long[sets][] : null;
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
    }

    /**
     * Looks {@code key} up and makes it the most recent of its set: true on a hit; on a miss the
     * key is filled, evicting the set's least recently used key.
     */
    public boolean access(long key) {
        int set = set(key);
        long tag = key ^ salt;
        if (whole != null) {
            int base = set * ways;
            int i = find(whole, base, base + ways, tag);
            moveToFront(whole, base, i < 0 ? base + ways - 1 : i, tag);
            return i >= 0;
        }
        long[] t = perSet[set];
        if (t == null) {
            perSet[set] = new long[] {tag};
            return false;
        }
        int n = t.length;
        int i = find(t, 0, n, tag);
        if (i < 0) {
            if (t[n - 1] != 0 && n < ways) {
                // A miss in a set whose every allocated way is taken, and more ways to come: grow it.
                t = perSet[set] = java.util.Arrays.copyOf(t, Math.min(ways, n << 1));
                n = t.length;
            }
            moveToFront(t, 0, n - 1, tag);
            return false;
        }
        moveToFront(t, 0, i, tag);
        return true;
    }

    /** The way of ways {@code base .. end-1} holding {@code tag}, or -1. */
    private static int find(long[] t, int base, int end, long tag) {
        for (int i = base; i < end; i++) {
            if (t[i] == tag) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Makes {@code tag} the front (most recent) way of the set starting at {@code base}: the ways
     * before way {@code i} (its own on a hit, the last on a miss, which drops out) shift back by one.
     */
    private static void moveToFront(long[] t, int base, int i, long tag) {
        for (int j = i; j > base; j--) {
            t[j] = t[j - 1];
        }
        t[base] = tag;
    }

    /** Whether {@code key} is held, without touching its recency. */
    public boolean holds(long key) {
        int set = set(key);
        long tag = key ^ salt;
        if (whole != null) {
            return find(whole, set * ways, set * ways + ways, tag) >= 0;
        }
        long[] t = perSet[set];
        return t != null && find(t, 0, t.length, tag) >= 0;
    }

    private int set(long key) {
        if (setMask == 0) {
            return 0;
        }
        // Fibonacci hashing: the top bits of key * 2^64/phi.
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> setShift) & setMask;
    }
}
