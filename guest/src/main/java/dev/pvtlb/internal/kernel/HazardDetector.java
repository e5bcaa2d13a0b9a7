package dev.pvtlb.internal.kernel;

import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.hazard.HazardLog;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.Level;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.mmu.WalkObserver;
import dev.pvtlb.internal.mmu.Walker;
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
 * zap returns without a flush of its own (the 2017 nested-flush miss).
 * </ul>
 */
public final class HazardDetector implements WalkObserver {
    private final Kernel guest;
    private final HazardLog log;

    HazardDetector(Kernel guest, HazardLog log) {
        this.guest = guest;
        this.log = log;
    }

    private void report(HazardKind kind, int cpu, String detail) {
        log.add(new Hazard(kind, guest.engine().now(), cpu, detail));
    }

    @Override
    public void walkAfterFree(Walker walker, int cpu, int pfn, Level level, FrameState nowState, int expectedGen, int nowGen) {
        report(HazardKind.WALK_AFTER_FREE, cpu, String.format(
                "%s read %s table frame 0x%x (gen %d) but the frame is now %s (gen %d)",
                walker.kernelName(), level.name().toLowerCase(java.util.Locale.ROOT), pfn, expectedGen,
                nowState.name().toLowerCase(java.util.Locale.ROOT), nowGen));
    }

    /**
     * A zap of [start, end) returns to user space without having flushed (its gather found
     * nothing to flush): every CPU executing the mm must hold no translation of the range that
     * disagrees with the page tables, since the caller now takes the range to be gone.
     */
    public void checkRangeClean(KernelCpu initiator, Mm mm, long start, long end, String syscall) {
        for (KernelCpu c : guest.cpus()) {
            if (c == initiator || c.loadedMm() != mm || c.tlbState.isLazy || !c.vcpuRunning()) {
                continue; // a vCPU that is not running may owe a deferred flush: it is checked when it uses one
            }
            int pcid = c.localTlb().currentPcid();
            long[] found = {-1, 0};
            c.localTlb().tlb().forEach((p, vpn, pte, filledAt) -> {
                long va = vpn << 12;
                if (found[0] < 0 && p == pcid && va >= start && va < end) {
                    long now = guest.pageTables().get(mm.pgd(), va);
                    if (!Pte.present(now) || Pte.pfnOf(now) != Pte.pfnOf(pte)) {
                        found[0] = va;
                        found[1] = pte;
                    }
                }
            });
            if (found[0] >= 0) {
                report(HazardKind.STALE_TRANSLATION, c.id, String.format(
                        "%s of [0x%x, 0x%x) returned on cpu%d without a flush while cpu%d still holds 0x%x -> %s",
                        syscall, start, end, initiator.id, c.id, found[0], Pte.describe(found[1])));
            }
        }
    }

    /**
     * Checks a TLB hit of {@code cpu} on entry {@code index} for {@code va}; returns false when
     * the use is stale (and reports it).
     */
    public boolean checkTranslation(KernelCpu cpu, Tlb tlb, int index, long va, boolean write) {
        Mm mm = cpu.loadedMm();
        long cached = tlb.pte(index);
        long now = guest.pageTables().get(mm.pgd(), va);
        boolean agrees = Pte.present(now) && Pte.pfnOf(now) == Pte.pfnOf(cached)
                && (!Pte.writable(cached) || Pte.writable(now));
        if (agrees) {
            tlb.verified(index, guest.engine().now());
            return true;
        }
        if (mm.flushPendingCovers(va)) {
            return true; // inside the change's own flush window: legal
        }
        report(HazardKind.STALE_TRANSLATION, cpu.id, String.format(
                "%s of 0x%x through a TLB entry -> %s filled at %d ns; the page table now says %s and its flush returned",
                write ? "store" : "load", va, Pte.describe(cached), tlb.filledAt(index), Pte.describe(now)));
        tlb.verified(index, guest.engine().now()); // one report per entry per flush
        return false;
    }
}
