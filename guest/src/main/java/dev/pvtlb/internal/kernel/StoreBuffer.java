package dev.pvtlb.internal.kernel;

import java.util.Arrays;

/**
 * One CPU's stores to shared locations that other CPUs cannot see yet, and (arm64) its TLB
 * invalidations that have not completed yet, over a memory of {@code long} locations that all
 * CPUs read.
 * <ul>
 * <li>{@link MemoryModel#SC}: a store is visible at once; a TLBI completes at once.
 * <li>{@link MemoryModel#TSO} (x86): stores wait in FIFO order; a load reads its own CPU's newest
 * buffered store to the location, else memory; {@link #drainOldest()} is the explorer's choice of
 * when the oldest store leaves; {@link #fence()} (MFENCE, a LOCK-prefixed operation, a serializing
 * instruction such as a CR3 write or IRET) drains all. INVLPG is not serializing: it drains
 * nothing. A TLB instruction completes at once.
 * <li>{@link MemoryModel#ARM} (arm64): any buffered store may drain first ({@link #drainAt}), but
 * two stores to one location keep their order (coherence); DMB/DSB ({@link #fence()},
 * {@link #dsb()}) drain all; a TLBI is pending until the next DSB completes it.
 * </ul>
 */
public final class StoreBuffer {
    private final MemoryModel model;
    private final long[] memory;
    private int[] locs = new int[4];
    private long[] vals = new long[4];
    private long[] seqs = new long[4];
    private int n;
    private long nextSeq;
    private long[] tlbis = new long[4];
    private int nTlbis;

    /** A buffer of one CPU over {@code memory}, shared with the other CPUs' buffers. */
    public StoreBuffer(MemoryModel model, long[] memory) {
        this.model = model;
        this.memory = memory;
    }

    public MemoryModel model() {
        return model;
    }

    /** A store; returns its sequence number (for {@link #drainThrough}), -1 when visible at once. */
    public long store(int loc, long value) {
        if (model == MemoryModel.SC) {
            memory[loc] = value;
            return -1;
        }
        if (n == locs.length) {
            locs = Arrays.copyOf(locs, n * 2);
            vals = Arrays.copyOf(vals, n * 2);
            seqs = Arrays.copyOf(seqs, n * 2);
        }
        locs[n] = loc;
        vals[n] = value;
        seqs[n] = nextSeq;
        n++;
        return nextSeq++;
    }

    /** A load by this buffer's CPU: store forwarding from its own newest buffered store. */
    public long load(int loc) {
        for (int i = n - 1; i >= 0; i--) {
            if (locs[i] == loc) {
                return vals[i];
            }
        }
        return memory[loc];
    }

    /** What another CPU reads at {@code loc}: memory only. */
    public long visible(int loc) {
        return memory[loc];
    }

    /** Stores still buffered. */
    public int pending() {
        return n;
    }

    /** Locked operation (LOCK XCHG, LOCK CMPXCHG, ...): a full barrier on x86, drains all first. */
    public long lockedExchange(int loc, long value) {
        fence();
        long old = memory[loc];
        memory[loc] = value;
        return old;
    }

    /** MFENCE, a locked operation, a serializing instruction; DMB on arm64: every store drains. */
    public void fence() {
        for (int i = 0; i < n; i++) {
            memory[locs[i]] = vals[i];
        }
        n = 0;
    }

    /** x86-TSO: the oldest buffered store becomes visible. */
    public void drainOldest() {
        drainAt(0);
    }

    /**
     * The buffered store at {@code index} becomes visible: under TSO only the oldest may
     * (index 0); under ARM any, but the oldest store to the same location goes first.
     */
    public void drainAt(int index) {
        if (index < 0 || index >= n) {
            throw new IllegalArgumentException("no buffered store " + index + " of " + n);
        }
        if (model == MemoryModel.TSO && index != 0) {
            throw new IllegalArgumentException("x86-TSO drains its store buffer in order");
        }
        int i = index;
        for (int j = 0; j < index; j++) {
            if (locs[j] == locs[index]) {
                i = j;
                break;
            }
        }
        memory[locs[i]] = vals[i];
        System.arraycopy(locs, i + 1, locs, i, n - i - 1);
        System.arraycopy(vals, i + 1, vals, i, n - i - 1);
        System.arraycopy(seqs, i + 1, seqs, i, n - i - 1);
        n--;
    }

    /** Drains the stores up to and including the one numbered {@code seq} (FIFO), if still buffered. */
    public void drainThrough(long seq) {
        while (n > 0 && seqs[0] <= seq) {
            drainAt(0);
        }
    }

    /**
     * The explorer's drain of store {@code seq}: under TSO it and every older store (FIFO);
     * under ARM that store alone (after an older one to the same location). Nothing if a
     * barrier drained it already.
     */
    public void drainChosen(long seq) {
        if (model == MemoryModel.TSO) {
            drainThrough(seq);
            return;
        }
        for (int i = 0; i < n; i++) {
            if (seqs[i] == seq) {
                drainAt(i);
                return;
            }
        }
    }

    /** TLBI (arm64): pending until the next DSB; on x86 (INVLPG, a CR3 write) complete at once. */
    public void tlbi(long va) {
        if (model != MemoryModel.ARM) {
            return;
        }
        if (nTlbis == tlbis.length) {
            tlbis = Arrays.copyOf(tlbis, nTlbis * 2);
        }
        tlbis[nTlbis++] = va;
    }

    /** Whether a TLBI of {@code va} issued by this CPU has completed. */
    public boolean tlbiComplete(long va) {
        for (int i = 0; i < nTlbis; i++) {
            if (tlbis[i] == va) {
                return false;
            }
        }
        return true;
    }

    /** DSB (arm64): every buffered store drains and every pending TLBI completes. */
    public void dsb() {
        fence();
        nTlbis = 0;
    }
}
