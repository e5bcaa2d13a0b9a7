package dev.pvtlb.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.stats.Counter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** How a user's test gets a booted guest: the extension at work on a catalogue scenario. */
@ExtendWith(PvtlbExtension.class)
class PvtlbExtensionTest {
    @Test
    void aGuestIsBootedAsAnnotated(@PvtlbGuest(cpus = 2, memoryMiB = 8, knobs = "lazy=off") Guest g) {
        assertEquals(2, g.cpus().size());
        assertEquals(8L << 20, g.config().memoryBytes());
        assertEquals("off", g.knobValues().get("lazy"));
        assertEquals("native", g.pvOps().name());
    }

    @Test
    void aUsersTestRunsAWorkloadOnIt(@PvtlbGuest(cpus = 4, knobs = "native.smtSiblingDedup=false") Guest g) {
        Scenario s = Scenario.of("arm64-stale-cpumask");
        s.setUp(g);
        g.run(Long.MAX_VALUE);
        assertEquals(0, g.liveTasks());
        assertTrue(g.vmstat().get(Counter.NR_TLB_REMOTE_FLUSH) > 0, "native IPIs reach CPU 1");
        assertEquals(0, g.hazards().count());
    }

    @Test
    void aTopologyReplacesTheFlatCpuCount(@PvtlbGuest(topology = "2x2x2", knobs = "native.smtSiblingDedup=true") Guest g) {
        assertEquals(8, g.cpus().size());
        assertEquals(new dev.pvtlb.smp.Topology(2, 2, 2), g.topology());
        assertEquals(List.of(0, 4), java.util.Arrays.stream(g.topology().siblingsOf(0)).boxed().toList(), "cpu0 and its SMT sibling");
    }

    @Test
    void theDefaultsAreTheBuildersAndAScenariosMachine(@PvtlbGuest Guest g) {
        GuestConfig built = GuestConfig.builder().build();
        assertEquals(256L << 20, g.config().memoryBytes());
        assertEquals(built.memoryBytes(), g.config().memoryBytes());
        assertEquals(Scenario.of("munmap-storm").guestConfig(0).memoryBytes(), g.config().memoryBytes());
        assertEquals(built.topology(), g.config().topology());
        assertEquals(4, g.cpus().size());
    }
}
