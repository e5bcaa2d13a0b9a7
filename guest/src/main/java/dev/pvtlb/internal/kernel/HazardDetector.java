package dev.pvtlb.internal.kernel;

import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.hazard.HazardLog;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.Level;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.mmu.WalkObserver;
import dev.pvtlb.internal.mmu.Walker;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.tlb.Tlb;

/**
 * The always-on hazard detectors of a guest, writing what they find into its {@link HazardLog}.
 * <ul>
 * <li>WALK_AFTER_FREE comes from the walkers ({@link WalkObserver}).
 * <li>STALE_TRANSLATION is checked on a TLB hit whose entry is older than the last returned
 * flush of the mm: the entry is compared with the page tables; if they disagree and the
 * address is not inside a change whose flush is still pending (mm->tlb_flush_pending, by
 * range), the use is stale. An entry found to agree is marked verified, so each entry is
 * compared at most once per returned flush and the fast path stays cheap. Also checked when a
 * zap returns without a flush of its own (the 2017 nested-flush miss; ZapRange.checkRangeClean).
 * </ul>
 */
public final class HazardDetector implements WalkObserver {
    private final PageTables pageTables;
    private final Engine engine;
    private final HazardLog log;

    /** The detectors of the guest whose page tables are {@code pageTables}, timed by {@code engine}. */
    HazardDetector(PageTables pageTables, Engine engine, HazardLog log) {
        this.pageTables = pageTables;
        this.engine = engine;
        this.log = log;
    }

    /** Logs a hazard found on {@code cpu} now (also by ZapRange's check of a zap that returns unflushed). */
    void report(HazardKind kind, int cpu, String detail) {
        log.add(new Hazard(kind, engine.now(), cpu, detail));
    }

    @Override
    public void walkAfterFree(Walker walker, int cpu, int pfn, Level level, FrameState nowState, int expectedGen, int nowGen) {
        report(HazardKind.WALK_AFTER_FREE, cpu, String.format(
                "%s read %s table frame 0x%x (gen %d) but the frame is now %s (gen %d)",
                walker.kernelName(), level.name().toLowerCase(java.util.Locale.ROOT), pfn, expectedGen,
                nowState.name().toLowerCase(java.util.Locale.ROOT), nowGen));
    }

    /**
     * Checks a TLB hit of {@code cpu}, running {@code mm}, on entry {@code index} for {@code va};
     * returns false when the use is stale (and reports it).
     */
    public boolean checkTranslation(int cpu, Mm mm, Tlb tlb, int index, long va, boolean write) {
        long cached = tlb.pte(index);
        long now = pageTables.get(mm.pgd(), va);
        boolean agrees = Pte.present(now) && Pte.pfnOf(now) == Pte.pfnOf(cached)
                && (!Pte.writable(cached) || Pte.writable(now));
        if (agrees) {
            tlb.verified(index, engine.now());
            return true;
        }
        if (mm.flushPendingCovers(va)) {
            return true; // inside the change's own flush window: legal
        }
        report(HazardKind.STALE_TRANSLATION, cpu, String.format(
                "%s of 0x%x through a TLB entry -> %s filled at %d ns; the page table now says %s and its flush returned",
                write ? "store" : "load", va, Pte.describe(cached), tlb.filledAt(index), Pte.describe(now)));
        tlb.verified(index, engine.now()); // one report per entry per flush
        return false;
    }
}
