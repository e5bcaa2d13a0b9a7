package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;

class RarContractTest extends BackendContract {
    @Override
    String backend() {
        return "rar";
    }

    @Override
    void countersAddUp(Scripted s) {
        assertEquals(0, s.count(Counter.IPIS_SENT), "remote actions, not interrupts");
        assertEquals(0, s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED), "no handler runs on the targets");
        assertTrue(s.count(Counter.REMOTE_ACTION_REQUESTS) > 0);
    }
}
