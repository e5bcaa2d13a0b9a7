package dev.pvtlb.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import org.junit.jupiter.api.Test;

/**
 * The explorer runs at the exact quantum (0) on a copy of the scenario it is given: the caller's
 * scenario, run afterwards, still runs at its own quantum (500 ns by default) and gives the same
 * result as before the explorer saw it.
 */
class ExplorerLeavesScenarioTest {
    @Test
    void aScenarioRunsTheSameBeforeAndAfterAnExplorerUsedIt() {
        Scenario s = Scenario.of("munmap-storm").set("ops", "20").seed(3);
        long before = Runner.run(s).steps();
        assertEquals(dev.pvtlb.profile.Profile.load(dev.pvtlb.profile.Profile.DEFAULT).ns("model.quantum.ns"), s.guestConfig(0).quantumNs());
        new Explorer(s).explore(new RandomStrategy(1), 2, 1e9);
        assertEquals(dev.pvtlb.profile.Profile.load(dev.pvtlb.profile.Profile.DEFAULT).ns("model.quantum.ns"), s.guestConfig(0).quantumNs(), "the caller's quantum");
        assertEquals(before, Runner.run(s).steps());
        assertEquals(0L, s.copy().defaultQuantum(0).guestConfig(0).quantumNs(), "a copy changes alone");
        assertEquals(dev.pvtlb.profile.Profile.load(dev.pvtlb.profile.Profile.DEFAULT).ns("model.quantum.ns"), s.guestConfig(0).quantumNs());
    }
}
