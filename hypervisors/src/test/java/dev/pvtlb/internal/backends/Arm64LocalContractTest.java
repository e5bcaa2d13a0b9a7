package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;
import java.util.Map;

class Arm64LocalContractTest extends BackendContract {
    @Override
    String backend() {
        return "arm64";
    }

    @Override
    Map<String, String> knobs() {
        return Map.of("arm64.flush", "local");
    }

    @Override
    void countersAddUp(Scripted s) {
        assertEquals(0, s.count(Counter.BROADCAST_FLUSHES));
        assertTrue(s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED) > 0, "local TLBIs run from the IPI");
    }
}
