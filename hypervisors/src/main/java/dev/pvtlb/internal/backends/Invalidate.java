package dev.pvtlb.internal.backends;

import dev.pvtlb.smp.Cpu;
import dev.pvtlb.flush.FlushTlbInfo;

/** Invalidation done to a CPU by hardware on another CPU's request (broadcast TLBI, INVLPGB, RAR). */
final class Invalidate {
    private Invalidate() {}

    /**
     * Drops {@code info}'s translations of its mm from {@code target}, whichever ASID slot
     * caches the mm there (the request names the address space, not the target's current one).
     */
    static void mmRange(Cpu target, FlushTlbInfo info, boolean full) {
        int slot = target.asidSlotOf(info.mm);
        if (slot < 0) {
            return;
        }
        if (full || info.isFullFlush()) {
            target.flushAsid(slot, info.mm);
            return;
        }
        for (long va = info.start; va < info.end; va += 1L << info.strideShift) {
            target.invlpgAsid(slot, info.mm, va);
        }
    }
}
