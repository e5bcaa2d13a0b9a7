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

    /** this_cpu_write(cpu_tlbstate_shared.is_lazy, lazy). */
    static void storeLazy(KernelCpu cpu, boolean lazy) {
        cpu.tlbState.isLazy = lazy;
        store(cpu, TlbState.LAZY, lazy);
    }

    /** this_cpu_write(cpu_tlbstate.loaded_mm, switching ? LOADED_MM_SWITCHING : next). */
    static void storeSwitching(KernelCpu cpu, boolean switching) {
        cpu.tlbState.switching = switching;
        store(cpu, TlbState.SWITCHING, switching);
    }

    /** smp_mb(), a locked operation or a serializing instruction on {@code cpu}: its stores drain. */
    static void fence(KernelCpu cpu) {
        StoreBuffer sb = cpu.tlbState.storeBuffer;
        if (sb != null) {
            sb.fence();
        }
    }

    private static void store(KernelCpu cpu, int loc, boolean v) {
        StoreBuffer sb = cpu.tlbState.storeBuffer;
        if (sb == null) {
            return;
        }
        long seq = sb.store(loc, v ? 1 : 0);
        Kernel g = cpu.kernel();
        long delay = g.engine().chooseInRange(ChoicePoint.STORE_DRAIN, 0, g.costs().storeDrainMaxNs, 4);
        g.engine().at(g.engine().now() + delay, e -> sb.drainChosen(seq));
    }
}
