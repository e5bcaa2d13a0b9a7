package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;

class HypervContractTest extends BackendContract {
    @Override
    String backend() {
        return "hyperv";
    }

    @Override
    void countersAddUp(Scripted s) {
        assertTrue(s.count(Counter.HYPERCALLS) > 0);
        assertEquals(0, s.count(Counter.NATIVE_FALLBACKS), "8 vCPUs: every VP number fits the 64-bit mask");
        assertEquals(0, s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED), "the guest takes no flush interrupt");
        assertTrue(s.count(Counter.HYPERVISOR_FLUSHES) >= s.count(Counter.DEFERRED_FLUSHES));
    }
}
