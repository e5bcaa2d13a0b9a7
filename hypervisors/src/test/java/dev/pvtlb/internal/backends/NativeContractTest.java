package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;

class NativeContractTest extends BackendContract {
    @Override
    String backend() {
        return "native";
    }

    @Override
    void countersAddUp(Scripted s) {
        assertTrue(s.count(Counter.IPIS_SENT) > 0);
        assertTrue(s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED) > 0, "targets ran flush_tlb_func");
        assertEquals(0, s.count(Counter.BROADCAST_FLUSHES) + s.count(Counter.REMOTE_ACTION_REQUESTS));
    }
}
