package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioTracePvOpsTest {
    private static List<String> pvOpsEvents(Scenario s) {
        List<String> seen = new ArrayList<>();
        try (Guest g = s.boot(0)) {
            g.trace().subscribe(e -> {
                if (e.name().equals("pv_ops")) {
                    seen.add("cpu" + e.cpu() + " " + e.detail());
                }
            });
            g.run(Long.MAX_VALUE);
        }
        return seen;
    }

    @Test
    void aScenarioTurnsPvOpsTracingOnForTheGuestsItBoots() {
        Scenario s = Scenario.of("munmap-storm").set("vcpus", "2").set("threads", "2").set("ops", "1");
        assertFalse(s.guestConfig(0).tracePvOps(), "off unless asked for");
        assertEquals(List.of(), pvOpsEvents(s));
        s.tracePvOps(true);
        assertTrue(s.guestConfig(0).tracePvOps());
        assertTrue(s.copy().guestConfig(0).tracePvOps(), "a copy keeps it");
        List<String> calls = pvOpsEvents(s);
        // Each thread's munmap flushes the other CPU once through pv_ops.flush_tlb_multi.
        assertEquals(2, calls.stream().filter(c -> c.contains("native.flushTlbMulti")).count(), calls.toString());
    }
}
