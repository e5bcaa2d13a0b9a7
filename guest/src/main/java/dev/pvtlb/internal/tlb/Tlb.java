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
    /*
     * The tags of a set are contiguous, so a lookup scans two cache lines; what a hit then reads
     * and writes (the PTE, the fill time, the LRU stamp) sits in one 32-byte record per entry in
     * data[4i .. 4i+2], one cache line, rather than in three arrays. With 16 and more CPUs taking
     * turns, TLB state does not stay in the host's L1/L2, so the lines a hit touches are what it costs.
     */
    private static final int PTE = 0;
    private static final int FILLED_AT = 1;
    private static final int LAST_USE = 2;
    private static final int EPOCH = 3;
    private static final int STRIDE_SHIFT = 2;

    private final long[] tags;
    private final long[] data;
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
        this.tags = new long[entries];
        this.data = new long[entries << STRIDE_SHIFT];
        Arrays.fill(tags, EMPTY);
    }

    public int capacity() {
        return tags.length;
    }

    /** Entries currently valid (a scan: for tests and checkers). */
    public int size() {
        int n = 0;
        for (int i = 0; i < tags.length; i++) {
            if (valid(i)) {
                n++;
            }
        }
        return n;
    }

    private long epoch(int pcid) {
        return pcid < epochs.length ? epochs[pcid] : 0;
    }

    private boolean valid(int i) {
        long t = tags[i];
        return t != EMPTY && data[(i << STRIDE_SHIFT) + EPOCH] == epoch((int) (t >>> VPN_BITS));
    }

    static long tag(int pcid, long vpn) {
        return ((long) pcid << VPN_BITS) | vpn;
    }

    private int setBase(long vpn, int pcid) {
        long h = vpn ^ ((long) pcid * 0x9E3779B1L);
        return (int) (h & (sets - 1)) * ways;
    }

    /** Index of the entry for (pcid, vpn), or -1 on a miss. Updates LRU state on a hit. */
    public int lookup(int pcid, long vpn) {
        long t = tag(pcid, vpn);
        long epoch = epoch(pcid);
        int base = setBase(vpn, pcid);
        // A fill takes the first way that holds the tag or holds nothing valid, so a valid entry
        // for a tag always comes before any stale one: the first tag match decides.
        for (int i = base, end = base + ways; i < end; i++) {
            if (tags[i] == t) {
                if (data[(i << STRIDE_SHIFT) + EPOCH] != epoch) {
                    return -1;
                }
                data[(i << STRIDE_SHIFT) + LAST_USE] = ++tick;
                return i;
            }
        }
        return -1;
    }

    public long pte(int index) {
        return data[(index << STRIDE_SHIFT) + PTE];
    }

    public long filledAt(int index) {
        return data[(index << STRIDE_SHIFT) + FILLED_AT];
    }

    /**
     * Records that a checker found entry {@code index} agreeing with the page tables at
     * {@code now}: from then on it counts as filled at {@code now}.
     */
    public void verified(int index, long now) {
        data[(index << STRIDE_SHIFT) + FILLED_AT] = now;
    }

    /** Updates the cached PTE of a hit entry (the hardware setting the dirty bit). */
    public void updatePte(int index, long pte) {
        data[(index << STRIDE_SHIFT) + PTE] = pte;
    }

    /** Installs a translation, evicting the least recently used way of its set if full. */
    public void fill(int pcid, long vpn, long pte, long now) {
        long t = tag(pcid, vpn);
        int base = setBase(vpn, pcid);
        int victim = -1;
        long oldest = Long.MAX_VALUE;
        for (int i = base, end = base + ways; i < end; i++) {
            if (tags[i] == t || !valid(i)) {
                victim = i;
                break;
            }
            if (data[(i << STRIDE_SHIFT) + LAST_USE] < oldest) {
                oldest = data[(i << STRIDE_SHIFT) + LAST_USE];
                victim = i;
            }
        }
        tags[victim] = t;
        data[(victim << STRIDE_SHIFT) + PTE] = pte;
        data[(victim << STRIDE_SHIFT) + FILLED_AT] = now;
        data[(victim << STRIDE_SHIFT) + LAST_USE] = ++tick;
        data[(victim << STRIDE_SHIFT) + EPOCH] = epoch(pcid);
    }

    /** INVLPG / INVPCID individual-address: drops the entry for (pcid, vpn). */
    public boolean invalidate(int pcid, long vpn) {
        long t = tag(pcid, vpn);
        int base = setBase(vpn, pcid);
        for (int i = base, end = base + ways; i < end; i++) {
            if (tags[i] == t) {
                boolean was = valid(i);
                tags[i] = EMPTY;
                return was;
            }
        }
        return false;
    }

    /** Drops each valid entry of {@code pcid} whose (vpn, pte) {@code drop} accepts. For checkers and host models, not hot paths. */
    public void invalidateIf(int pcid, EntryFilter drop) {
        for (int i = 0; i < tags.length; i++) {
            if (valid(i) && (int) (tags[i] >>> VPN_BITS) == pcid
                    && drop.test(tags[i] & ((1L << VPN_BITS) - 1), data[(i << STRIDE_SHIFT) + PTE])) {
                tags[i] = EMPTY;
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
        Arrays.fill(tags, EMPTY);
    }

    /** Back to the state of a new TLB: empty, and the LRU clock and history cleared. */
    public void clear() {
        if (tick == 0) {
            return; // nothing filled or hit since the last clear: already as new
        }
        flushAll();
        Arrays.fill(data, 0);
        Arrays.fill(epochs, 0);
        tick = 0;
    }

    /** Visits every valid entry: (pcid, vpn, pte, filledAt). For checkers and tests, not hot paths. */
    public void forEach(EntryVisitor v) {
        for (int i = 0; i < tags.length; i++) {
            if (valid(i)) {
                v.entry((int) (tags[i] >>> VPN_BITS), tags[i] & ((1L << VPN_BITS) - 1),
                        data[(i << STRIDE_SHIFT) + PTE], data[(i << STRIDE_SHIFT) + FILLED_AT]);
            }
        }
    }

    /** One valid TLB entry, as seen by {@link #forEach}. */
    @FunctionalInterface
    public interface EntryVisitor {
        void entry(int pcid, long vpn, long pte, long filledAt);
    }
}
