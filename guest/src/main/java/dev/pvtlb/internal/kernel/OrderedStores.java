package dev.pvtlb.internal.kernel;

import dev.pvtlb.model.ChoicePoint;

/**
 * The flush protocol's plain per-CPU stores under memoryModel=tso|arm: this_cpu_write() of
 * cpu_tlbstate_shared.is_lazy and of cpu_tlbstate.loaded_mm (LOADED_MM_SWITCHING and next). Each
 * waits in the CPU's {@link StoreBuffer} until the explorer lets it drain (a STORE_DRAIN choice
 * among 4 delays up to model.store_drain.max.ns) or the CPU executes a barrier: the locked
 * mm_cpumask and tlb_gen atomics, smp_mb(), the CR3 write (serializing), interrupt return.
 * mm_cpumask, tlb_gen and the PTE clears (xchg) are locked operations, so they are visible at once
 * under every model.
 */
final class OrderedStores {

    private OrderedStores() {}

    /** this_cpu_write(cpu_tlbstate_shared.is_lazy, lazy) by the CPU whose tlb_state {@code s} is. */
    static void storeLazy(TlbState s, boolean lazy) {
        s.isLazy = lazy;
        store(s, TlbState.LAZY, lazy);
    }

    /** this_cpu_write(cpu_tlbstate.loaded_mm, switching ? LOADED_MM_SWITCHING : next). */
    static void storeSwitching(TlbState s, boolean switching) {
        s.switching = switching;
        store(s, TlbState.SWITCHING, switching);
    }

    /** smp_mb(), a locked operation or a serializing instruction on the CPU of {@code s}: its stores drain. */
    static void fence(TlbState s) {
        StoreBuffer sb = s.storeBuffer;
        if (sb != null) {
            sb.fence();
        }
    }

    private static void store(TlbState s, int loc, boolean v) {
        StoreBuffer sb = s.storeBuffer;
        if (sb == null) {
            return;
        }
        long seq = sb.store(loc, v ? 1 : 0);
        long delay = s.engine.chooseInRange(ChoicePoint.STORE_DRAIN, 0, s.drainMaxNs, 4);
        s.engine.at(s.engine.now() + delay, e -> sb.drainChosen(seq));
    }
}
