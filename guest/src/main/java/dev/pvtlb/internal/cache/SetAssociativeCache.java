package dev.pvtlb.internal.cache;

/**
 * One level of a set-associative cache, tags only, least recently used replaced: what the model
 * needs to know is whether a line (or a translation) is still held, not its data. Each set keeps
 * its ways in recency order, most recent first, so a hit moves the tag to the front and a miss
 * drops the last way; a cache of at most 8 ways keeps that order as nibbles of a word instead of
 * moving its tags ({@link #fingerprints}).
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
public final class SetAssociativeCache implements dev.pvtlb.internal.sim.GraphCopy.SelfCopying {
    /** Caches of up to this many lines are allocated whole. */
    private static final int WHOLE = 1 << 16;
    private final int ways;
    private final int sets;
    private final int setMask;
    private final int setShift;
    /** A small cache's tags, set after set; null for a large one. */
    private final long[] whole;
    /*
     * A small cache of at most 8 ways keeps its tags unordered and each set's recency in a word
     * beside them: one byte-sized fingerprint per way (a hash of the key apart from its set
     * index), compared with all eight at once, and the ways' numbers in a nibble each, most recent
     * first. A hit or a fill moves a number to the front with a few shifts, where moving the tags
     * themselves cost a scan and a shift of the set per access (an L1 hit took 12.5 .. 14.8 ns in
     * a loop of hits, 6.8 .. 10.4 ns this way; bench munmap-storm, interleaved runs: 0.96 .. 1.02M
     * steps/s before, 1.05 .. 1.19M after). The same keys are held as in order: the victim is the
     * last number.
     */
    private final long[] fingerprints;
    private final int[] order;
    /** The bytes of a fingerprint word that belong to ways. */
    private final long wayBytes;
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
        boolean packed = !perSetArrays && ways <= 8;
        this.fingerprints = packed ? new long[sets] : null;
        this.order = packed ? new int[sets] : null;
        this.wayBytes = ways >= 8 ? 0x8080808080808080L : 0x8080808080808080L & ((1L << (8 * ways)) - 1);
        if (packed) {
            // Ways 0..ways-1 from most to least recent; the nibbles past them hold 0xF, no way's number.
            int initial = -1;
            for (int w = ways - 1; w >= 0; w--) {
                initial = initial << 4 | w;
            }
            java.util.Arrays.fill(order, initial);
        }
        clear();
    }

    /*
     * A branch's copy (GraphCopy) shares its arrays with the cache it was copied from and saves
     * each set before its first write to it; rolling back puts those sets back. Null outside a
     * branch: one test per access. Copying the arrays instead cost a branch megabytes (a CPU's L2
     * alone is tens of thousands of lines).
     */
    private SetJournal journal;

    private SetAssociativeCache(SetAssociativeCache o, SetJournal journal) {
        this.ways = o.ways;
        this.sets = o.sets;
        this.setMask = o.setMask;
        this.setShift = o.setShift;
        this.whole = o.whole;
        this.fingerprints = o.fingerprints;
        this.order = o.order;
        this.wayBytes = o.wayBytes;
        this.perSet = o.perSet;
        this.salt = o.salt;
        this.epoch = o.epoch;
        this.journal = journal;
    }

    @Override
    public Object copyForBranch(java.util.function.Consumer<Runnable> onRollback) {
        SetJournal j = new SetJournal(this);
        onRollback.accept(j);
        return new SetAssociativeCache(this, j);
    }

    /** The sets a branch wrote to, as they were before its first write to each. */
    private static final class SetJournal implements Runnable {
        private final SetAssociativeCache owner;
        private final java.util.BitSet saved = new java.util.BitSet();
        private int[] setsSaved = new int[64];
        private int count;
        /** Per saved set: its ways, fingerprint word and recency word (whole arrays), or its row (per-set arrays). */
        private long[][] before = new long[64][];

        SetJournal(SetAssociativeCache owner) {
            this.owner = owner;
        }

        void save(int set) {
            if (saved.get(set)) {
                return;
            }
            saved.set(set);
            if (count == setsSaved.length) {
                setsSaved = java.util.Arrays.copyOf(setsSaved, count * 2);
                before = java.util.Arrays.copyOf(before, count * 2);
            }
            SetAssociativeCache c = owner;
            long[] b;
            if (c.whole != null) {
                b = new long[c.ways + 2];
                System.arraycopy(c.whole, set * c.ways, b, 0, c.ways);
                b[c.ways] = c.fingerprints == null ? 0 : c.fingerprints[set];
                b[c.ways + 1] = c.order == null ? 0 : c.order[set];
            } else {
                b = c.perSet[set] == null ? null : c.perSet[set].clone();
            }
            setsSaved[count] = set;
            before[count++] = b;
        }

        @Override
        public void run() {
            SetAssociativeCache c = owner;
            for (int k = 0; k < count; k++) {
                int set = setsSaved[k];
                long[] b = before[k];
                if (c.whole != null) {
                    System.arraycopy(b, 0, c.whole, set * c.ways, c.ways);
                    if (c.fingerprints != null) {
                        c.fingerprints[set] = b[c.ways];
                        c.order[set] = (int) b[c.ways + 1];
                    }
                } else {
                    c.perSet[set] = b;
                }
            }
        }
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
        if (order != null) {
            return accessPacked(key);
        }
        int set = set(key);
        if (journal != null) {
            journal.save(set);
        }
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

    /** {@link #access} for a small cache of at most 8 ways (see {@link #fingerprints}). */
    private boolean accessPacked(long key) {
        long h = hash(key);
        int set = setOf(h);
        if (journal != null) {
            journal.save(set);
        }
        // The 8 bits below the set index: the set says nothing about them.
        long fp = h >>> (setShift - 8) & 0xFF;
        long tag = key ^ salt;
        int base = set * ways;
        long x = fingerprints[set] ^ fp * 0x0101010101010101L;
        // A byte of x is zero where a way's fingerprint matches; a borrow may flag a byte above a
        // match too, so each candidate's tag is compared.
        long candidates = (x - 0x0101010101010101L) & ~x & wayBytes;
        while (candidates != 0) {
            int way = Long.numberOfTrailingZeros(candidates) >>> 3;
            if (whole[base + way] == tag) {
                order[set] = toFront(order[set], way);
                return true;
            }
            candidates &= candidates - 1;
        }
        int ord = order[set];
        int victim = ord >>> 4 * (ways - 1) & 0xF;
        whole[base + victim] = tag;
        fingerprints[set] = fingerprints[set] & ~(0xFFL << 8 * victim) | fp << 8 * victim;
        order[set] = toFront(ord, victim);
        return false;
    }

    /** Recency word {@code ord} with way {@code way}'s nibble moved to the front, the nibbles before it one back. */
    private static int toFront(int ord, int way) {
        int y = ord ^ way * 0x11111111;
        int p = Integer.numberOfTrailingZeros((y - 0x11111111) & ~y & 0x88888888) >>> 2;
        int below = (1 << 4 * p) - 1;
        return ord & ~below & ~(0xF << 4 * p) | (ord & below) << 4 | way;
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
            // Unordered or in order, the set's ways are the same.
            return find(whole, set * ways, set * ways + ways, tag) >= 0;
        }
        long[] t = perSet[set];
        return t != null && find(t, 0, t.length, tag) >= 0;
    }

    private int set(long key) {
        return setOf(hash(key));
    }

    /** Fibonacci hashing: key * 2^64/phi, whose top bits index the set. */
    private static long hash(long key) {
        return key * 0x9E3779B97F4A7C15L;
    }

    private int setOf(long hash) {
        return setMask == 0 ? 0 : (int) (hash >>> setShift) & setMask;
    }
}
