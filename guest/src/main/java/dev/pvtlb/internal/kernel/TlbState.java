package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.sim.Engine;

/**
 * {@code struct tlb_state} of arch/x86/include/asm/tlbflush.h: per CPU, which mm is loaded
 * under which dynamic ASID, whether the CPU is in lazy TLB mode, and for each of the
 * TLB_NR_DYN_ASIDS slots the mm context it caches and the tlb_gen it is up to date with.
 */
public final class TlbState {
    /** TLB_NR_DYN_ASIDS. */
    public static final int NR_DYN_ASIDS = 6;

    public Mm loadedMm;
    public int loadedMmAsid;
    public int nextAsid = 1;
    /** cpu_tlbstate_shared.is_lazy: read by other CPUs deciding whom to IPI. */
    public boolean isLazy;
    /** loaded_mm == LOADED_MM_SWITCHING: inside switch_mm_irqs_off(), between prev and next. */
    public boolean switching;
    /** Locations of {@link #shared}: cpu_tlbstate_shared.is_lazy and loaded_mm == LOADED_MM_SWITCHING. */
    static final int LAZY = 0;
    static final int SWITCHING = 1;
    /** What other CPUs read of is_lazy and LOADED_MM_SWITCHING under memoryModel=tso|arm. */
    private final long[] shared = new long[2];
    /** This CPU's store buffer for them; null under sc (the fields above are what all CPUs read). */
    StoreBuffer storeBuffer;
    private MemoryModel memoryModel = MemoryModel.SC;
    /** Where a buffered store's drain is scheduled (OrderedStores), and its latest time after the store. */
    Engine engine;
    long drainMaxNs;

    /**
     * The memory model of the run (at boot); under tso|arm a store drains on {@code engine} within
     * {@code drainMaxNs} (model.store_drain.max.ns) unless a barrier drains it first.
     */
    void memoryModel(MemoryModel m, Engine engine, long drainMaxNs) {
        memoryModel = m;
        storeBuffer = m == MemoryModel.SC ? null : new StoreBuffer(m, shared);
        this.engine = engine;
        this.drainMaxNs = drainMaxNs;
    }

    /** is_lazy as another CPU reads it (should_flush_tlb()). */
    public boolean lazyVisible() {
        return storeBuffer == null ? isLazy : shared[LAZY] != 0;
    }

    /** loaded_mm == LOADED_MM_SWITCHING as another CPU reads it. */
    public boolean switchingVisible() {
        return storeBuffer == null ? switching : shared[SWITCHING] != 0;
    }
    public final long[] ctxId = new long[NR_DYN_ASIDS];
    public final long[] tlbGen = new long[NR_DYN_ASIDS];

    public void reset(Mm initMm) {
        loadedMm = initMm;
        loadedMmAsid = 0;
        nextAsid = 1;
        isLazy = false;
        switching = false;
        shared[LAZY] = 0;
        shared[SWITCHING] = 0;
        memoryModel(memoryModel, engine, drainMaxNs);
        java.util.Arrays.fill(ctxId, 0);
        java.util.Arrays.fill(tlbGen, 0);
        ctxId[0] = initMm.ctxId();
    }
}
