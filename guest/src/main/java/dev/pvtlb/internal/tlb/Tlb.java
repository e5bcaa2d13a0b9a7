package dev.pvtlb.internal.tlb;

import java.util.Arrays;

/**
 * A set-associative translation lookaside buffer with PCID-tagged 4 KiB entries and LRU
 * replacement within a set (the STLB of an Intel core is 12-way; real replacement is a
 * pseudo-LRU, which LRU approximates). One instance per logical CPU, or one per core shared by
 * its SMT threads when the topology says so. Entries are kept in primitive arrays so that a
 * batch of accesses looks them up without allocating.
 *
 * <p>Each entry keeps the leaf PTE it was filled from and the virtual time of the fill, so a
 * checker can compare it with the page tables and tell a stale translation from a fresh one.
 */
public final class Tlb {
    private static final long EMPTY = -1L;
    private static final int VPN_BITS = 36;

    private final int sets;
    private final int ways;
    /** An entry's index is its set shifted by this, or'ed with its way (no division on a hit). */
    private final int wayBits;
    /*
     * Each set is one array, allocated at its first fill: its ways' tags first (a lookup scans
     * them, two cache lines), then one 4-long record per way (the PTE, the fill time, the LRU stamp,
     * the PCID epoch), which a hit reads and writes. Whole arrays for every CPU (60 KiB each) were
     * allocated at every boot of a 1024-vCPU guest, before any CPU had filled a set, and copied by
     * the young collections of its run; the explorer's clear now drops the sets instead of
     * rewriting them.
     */
    private static final int PTE = 0;
    private static final int FILLED_AT = 1;
    private static final int LAST_USE = 2;
    private static final int EPOCH = 3;
    private static final int STRIDE_SHIFT = 2;

    private final long[][] setData;
    /*
     * A flush of one PCID (a CR3 write without the no-flush bit, INVPCID single-context) bumps
     * that PCID's epoch instead of scanning every entry: an entry counts only while the epoch it
     * was filled in is its PCID's current one. flush_tlb_func's full flushes are frequent under
     * concurrent munmaps, and a scan of 1536 entries each was a tenth of a 1024-vCPU run.
     */
    private long[] epochs = new long[8];
    private long tick;

    public Tlb(int entries, int ways) {
        if (ways < 1 || entries < ways || entries % ways != 0 || Integer.bitCount(entries / ways) != 1) {
            throw new IllegalArgumentException("TLB of " + entries + " entries and " + ways
                    + " ways: entries/ways must be a power of two");
        }
        this.sets = entries / ways;
        this.ways = ways;
        this.wayBits = 32 - Integer.numberOfLeadingZeros(ways - 1);
        this.setData = new long[sets][];
    }

    public int capacity() {
        return sets * ways;
    }

    /** Entries currently valid (a scan: for tests and checkers). */
    public int size() {
        int n = 0;
        for (long[] d : setData) {
            for (int w = 0; d != null && w < ways; w++) {
                if (valid(d, w)) {
                    n++;
                }
            }
        }
        return n;
    }

    private long epoch(int pcid) {
        return pcid < epochs.length ? epochs[pcid] : 0;
    }

    /** Where way {@code w}'s record starts in its set's array. */
    private int record(int w) {
        return ways + (w << STRIDE_SHIFT);
    }

    private boolean valid(long[] d, int w) {
        long t = d[w];
        return t != EMPTY && d[record(w) + EPOCH] == epoch((int) (t >>> VPN_BITS));
    }

    static long tag(int pcid, long vpn) {
        return ((long) pcid << VPN_BITS) | vpn;
    }

    private int set(long vpn, int pcid) {
        long h = vpn ^ ((long) pcid * 0x9E3779B1L);
        return (int) (h & (sets - 1));
    }

    /** An entry's index (what {@link #lookup} returns): its set and way. */
    private int index(int set, int way) {
        return set << wayBits | way;
    }

    /** Index of the entry for (pcid, vpn), or -1 on a miss. Updates LRU state on a hit. */
    public int lookup(int pcid, long vpn) {
        long t = tag(pcid, vpn);
        int set = set(vpn, pcid);
        long[] d = setData[set];
        if (d == null) {
            return -1;
        }
        // A fill takes the first way that holds the tag or holds nothing valid, so a valid entry
        // for a tag always comes before any stale one: the first tag match decides.
        for (int w = 0; w < ways; w++) {
            if (d[w] == t) {
                int r = record(w);
                if (d[r + EPOCH] != epoch(pcid)) {
                    return -1;
                }
                d[r + LAST_USE] = ++tick;
                return index(set, w);
            }
        }
        return -1;
    }

    private long[] dataOf(int index) {
        return setData[index >>> wayBits];
    }

    private int recordOf(int index) {
        return record(index & ((1 << wayBits) - 1));
    }

    public long pte(int index) {
        return dataOf(index)[recordOf(index) + PTE];
    }

    public long filledAt(int index) {
        return dataOf(index)[recordOf(index) + FILLED_AT];
    }

    /**
     * Records that a checker found entry {@code index} agreeing with the page tables at
     * {@code now}: from then on it counts as filled at {@code now}.
     */
    public void verified(int index, long now) {
        dataOf(index)[recordOf(index) + FILLED_AT] = now;
    }

    /** Updates the cached PTE of a hit entry (the hardware setting the dirty bit). */
    public void updatePte(int index, long pte) {
        dataOf(index)[recordOf(index) + PTE] = pte;
    }

    /** Installs a translation, evicting the least recently used way of its set if full. */
    public void fill(int pcid, long vpn, long pte, long now) {
        long t = tag(pcid, vpn);
        int set = set(vpn, pcid);
        long[] d = setData[set];
        if (d == null) {
            d = setData[set] = new long[record(ways)];
            java.util.Arrays.fill(d, 0, ways, EMPTY);
        }
        // The way that already holds the tag, first: a refill (the walk that sets the dirty bit
        // of a clean entry) replaces the entry as the hardware does. Taking the first free way
        // instead left the old entry behind in a later way whenever an INVLPG had emptied an
        // earlier one; lookup found the new entry first, but the next INVLPG dropped only that
        // one and the old translation came back (found by tlb-torture: a clean RW entry surviving
        // mprotect(PROT_READ)'s flush). Else the first free way, else the least recently used.
        int victim = -1;
        int free = -1;
        int lru = -1;
        long oldest = Long.MAX_VALUE;
        for (int w = 0; w < ways; w++) {
            if (d[w] == t) {
                victim = w;
                break;
            }
            if (!valid(d, w)) {
                if (free < 0) {
                    free = w;
                }
            } else if (d[record(w) + LAST_USE] < oldest) {
                oldest = d[record(w) + LAST_USE];
                lru = w;
            }
        }
        if (victim < 0) {
            victim = free >= 0 ? free : lru;
        }
        int r = record(victim);
        d[victim] = t;
        d[r + PTE] = pte;
        d[r + FILLED_AT] = now;
        d[r + LAST_USE] = ++tick;
        d[r + EPOCH] = epoch(pcid);
    }

    /** INVLPG / INVPCID individual-address: drops the entry for (pcid, vpn). */
    public boolean invalidate(int pcid, long vpn) {
        long t = tag(pcid, vpn);
        long[] d = setData[set(vpn, pcid)];
        for (int w = 0; d != null && w < ways; w++) {
            if (d[w] == t) {
                boolean was = valid(d, w);
                d[w] = EMPTY;
                return was;
            }
        }
        return false;
    }

    /** Drops each valid entry of {@code pcid} whose (vpn, pte) {@code drop} accepts. For checkers and host models, not hot paths. */
    public void invalidateIf(int pcid, EntryFilter drop) {
        for (long[] d : setData) {
            for (int w = 0; d != null && w < ways; w++) {
                if (valid(d, w) && (int) (d[w] >>> VPN_BITS) == pcid
                        && drop.test(d[w] & ((1L << VPN_BITS) - 1), d[record(w) + PTE])) {
                    d[w] = EMPTY;
                }
            }
        }
    }

    /** Which entries {@link #invalidateIf} drops. */
    @FunctionalInterface
    public interface EntryFilter {
        boolean test(long vpn, long pte);
    }

    /** MOV to CR3 without the no-flush bit / INVPCID single-context: drops every entry of a PCID. */
    public void flushPcid(int pcid) {
        if (pcid >= epochs.length) {
            epochs = Arrays.copyOf(epochs, Math.max(pcid + 1, epochs.length * 2));
        }
        epochs[pcid]++;
    }

    /** Drops everything (INVPCID all-context, or a CR4.PGE toggle). */
    public void flushAll() {
        for (long[] d : setData) {
            if (d != null) {
                Arrays.fill(d, 0, ways, EMPTY);
            }
        }
    }

    /** Back to the state of a new TLB: empty, and the LRU clock and history cleared. */
    public void clear() {
        if (tick == 0) {
            return; // nothing filled or hit since the last clear: already as new
        }
        // The sets' arrays stay: the explorer clears before each of tens of thousands of
        // schedules, and allocating them again made gup-fast-vs-free's schedules about a fifth
        // slower. An empty tag makes every way invalid, whatever its record holds.
        flushAll();
        Arrays.fill(epochs, 0);
        tick = 0;
    }

    /** Visits every valid entry: (pcid, vpn, pte, filledAt). For checkers and tests, not hot paths. */
    public void forEach(EntryVisitor v) {
        for (long[] d : setData) {
            for (int w = 0; d != null && w < ways; w++) {
                if (valid(d, w)) {
                    v.entry((int) (d[w] >>> VPN_BITS), d[w] & ((1L << VPN_BITS) - 1), d[record(w) + PTE], d[record(w) + FILLED_AT]);
                }
            }
        }
    }

    /** One valid TLB entry, as seen by {@link #forEach}. */
    @FunctionalInterface
    public interface EntryVisitor {
        void entry(int pcid, long vpn, long pte, long filledAt);
    }
}
