package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A vCPU's halt-poll window after each halt, as kvm_vcpu_block() adapts it with the module's
 * defaults (halt_poll_ns 200 us on x86, grow 2 from 10 us, shrink 0): it starts at 0, grows while
 * halts end within 200 us, stays while a halt ends within it, and a halt of milliseconds (a lock
 * waiter parked until its kick) resets it to 0.
 */
class HaltPollingTest {
    private static final HaltPolling KVM_X86 = new HaltPolling(200_000, 10_000, 2, 0);

    @Test
    void shortHaltsGrowTheWindowToTheModuleMaximum() {
        long w = 0;
        long[] expected = {10_000, 20_000, 40_000, 80_000, 160_000, 200_000, 200_000};
        for (long e : expected) {
            w = KVM_X86.adapt(w, 190_000); // each halt 190 us: longer than the window, under halt_poll_ns
            assertEquals(e, w);
        }
    }

    @Test
    void aHaltWithinTheWindowLeavesItAndALongOneResetsIt() {
        assertEquals(40_000, KVM_X86.adapt(40_000, 30_000), "woken while polling (30 us in a 40 us window)");
        assertEquals(40_000, KVM_X86.adapt(40_000, 40_000), "exactly the window");
        assertEquals(0, KVM_X86.adapt(40_000, 5_000_000), "5 ms: longer than halt_poll_ns, shrink 0 resets");
        assertEquals(0, KVM_X86.adapt(0, 5_000_000), "no window to shrink, none grows from a long halt");
        assertEquals(40_000, KVM_X86.adapt(40_000, 200_000), "exactly halt_poll_ns: neither shrinks nor grows");
    }

    @Test
    void aShrinkFactorDividesAndNoMaximumMeansNoPolling() {
        assertEquals(20_000, new HaltPolling(200_000, 10_000, 2, 2).adapt(40_000, 5_000_000));
        assertEquals(0, new HaltPolling(0, 10_000, 2, 0).adapt(40_000, 50_000));
        assertEquals(0, new HaltPolling(200_000, 10_000, 0, 0).adapt(0, 50_000), "halt_poll_ns_grow 0: never grows");
    }
}
