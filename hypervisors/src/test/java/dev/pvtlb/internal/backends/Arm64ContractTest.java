package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;

class Arm64ContractTest extends BackendContract {
    @Override
    String backend() {
        return "arm64";
    }

    @Override
    void countersAddUp(Scripted s) {
        assertEquals(0, s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED), "no flush IPIs: TLBI ...IS");
        assertTrue(s.count(Counter.BROADCAST_FLUSHES) > 0);
    }
}
