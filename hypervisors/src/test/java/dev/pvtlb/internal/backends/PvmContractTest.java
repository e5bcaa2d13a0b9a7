package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;

class PvmContractTest extends BackendContract {
    @Override
    String backend() {
        return "pvm";
    }

    @Override
    void countersAddUp(Scripted s) {
        assertTrue(s.count(Counter.HYPERCALLS) > 0);
        assertEquals(0, s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED), "PVM_HC_FLUSH_TLB_MULTI: the guest takes no flush interrupt");
        assertTrue(s.count(Counter.HYPERVISOR_FLUSHES) >= s.count(Counter.DEFERRED_FLUSHES),
                "every deferred flush was done at the vCPU's next entry");
        XenPvContractTest.assertNoneLeftPending(s);
    }
}
