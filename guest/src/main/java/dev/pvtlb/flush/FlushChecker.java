package dev.pvtlb.flush;

import dev.pvtlb.smp.Cpu;

/**
 * Hooks at the boundaries of a flush, for invariant checkers and hazard detectors
 * (STYLE.md practice 3). Null in a guest that has none, so the cost is one branch.
 */
public interface FlushChecker {
    /** flush_tlb_mm_range() built its request (tlb_gen already bumped). */
    default void flushStarted(Cpu initiator, FlushTlbInfo info) { }

    /** flush_tlb_func() finished on {@code cpu}. */
    default void afterFlushFunc(Cpu cpu, FlushTlbInfo info) { }

    /** flush_tlb_mm_range() returned to its caller on the initiator. */
    default void flushReturned(Cpu initiator, FlushTlbInfo info) { }
}
