package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;
import java.util.Map;

/**
 * kvm with pv TLB flush off: plain native IPIs in a VM. A preempted target delays the flush
 * until it runs again, but nothing is lost.
 */
class KvmNoPvFlushContractTest extends BackendContract {
    @Override
    String backend() {
        return "kvm";
    }

    @Override
    Map<String, String> knobs() {
        return Map.of("kvm.pvTlbFlush", "false");
    }

    @Override
    void countersAddUp(Scripted s) {
        assertTrue(s.count(Counter.IPIS_SENT) > 0);
        assertTrue(s.count(Counter.DEFERRED_FLUSHES) == 0 && s.count(Counter.HYPERVISOR_FLUSHES) == 0);
    }
}
