package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;
import java.util.Map;

/**
 * The public PVM guest: native IPIs sent by hypercall; the host flushes only when its shadow MMU
 * syncs an entry that lost a permission (kvm_flush_remote_tlbs()).
 */
class PvmIpiContractTest extends BackendContract {
    @Override
    String backend() {
        return "pvm";
    }

    @Override
    Map<String, String> knobs() {
        return Map.of("pvm.remoteFlush", "ipi");
    }

    @Override
    void countersAddUp(Scripted s) {
        assertTrue(s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED) > 0, "targets run flush_tlb_func from the IPI");
        assertTrue(s.count(Counter.HYPERVISOR_FLUSHES) > 0, "the shadow MMU's syncs flush the VM");
        assertTrue(s.count(Counter.HYPERCALLS) > 0, "the IPIs go out by KVM_HC_SEND_IPI");
    }
}
