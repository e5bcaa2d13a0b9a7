package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;

class InvlpgbContractTest extends BackendContract {
    @Override
    String backend() {
        return "invlpgb";
    }

    @Override
    void countersAddUp(Scripted s) {
        assertEquals(0, s.count(Counter.IPIS_SENT), "8 CPUs run the mm: a global ASID from the first flush");
        assertTrue(s.count(Counter.BROADCAST_FLUSHES) > 0);
    }
}
