package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;

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
    public final long[] ctxId = new long[NR_DYN_ASIDS];
    public final long[] tlbGen = new long[NR_DYN_ASIDS];

    public void reset(Mm initMm) {
        loadedMm = initMm;
        loadedMmAsid = 0;
        nextAsid = 1;
        isLazy = false;
        switching = false;
        java.util.Arrays.fill(ctxId, 0);
        java.util.Arrays.fill(tlbGen, 0);
        ctxId[0] = initMm.ctxId();
    }
}
