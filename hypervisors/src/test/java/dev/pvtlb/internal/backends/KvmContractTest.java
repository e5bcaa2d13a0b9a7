package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;

class KvmContractTest extends BackendContract {
    @Override
    String backend() {
        return "kvm";
    }

    @Override
    void countersAddUp(Scripted s) {
        assertTrue(s.count(Counter.IPIS_SENT) > 0, "running targets still get IPIs");
        assertTrue(s.count(Counter.HYPERCALLS) > 0, "KVM_HC_SEND_IPI");
        assertEquals(s.count(Counter.DEFERRED_FLUSHES), s.count(Counter.HYPERVISOR_FLUSHES),
                "each KVM_VCPU_FLUSH_TLB set is flushed exactly once, at the vCPU's next entry");
    }
}
