package dev.pvtlb.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.run.Scenario;
import org.junit.jupiter.api.Test;

/**
 * {@code speculation=on|off} turns the speculative walks of lazy idle CPUs on or off in any
 * scenario, over the workload's own choice. lazy-speculative-walk's bug (lazy CPUs skipped
 * although tables were freed) is only visible through such a walk.
 */
class SpeculationSettingTest {
    @Test
    void theSettingOverridesTheWorkloadsChoice() {
        assertFalse(Scenario.of("munmap-storm").guestConfig(0).speculativeWalks());
        assertTrue(Scenario.of("munmap-storm").set("speculation", "on").guestConfig(0).speculativeWalks());
        assertTrue(Scenario.of("lazy-speculative-walk").guestConfig(0).speculativeWalks());
        assertFalse(Scenario.of("lazy-speculative-walk").set("speculation", "off").guestConfig(0).speculativeWalks());
        ModelException e = assertThrows(ModelException.class, () -> Scenario.of("munmap-storm").set("speculation", "yes"));
        assertEquals("speculation must be on or off, got 'yes'", e.getMessage());
    }

    @Test
    void withoutSpeculationTheLazyFilterBugGoesUnseen() {
        Scenario on = Scenario.of("lazy-speculative-walk").set("lazy", "skip-nofree").seed(1);
        ExploreResult found = new Explorer(on).explore(new RandomStrategy(1), 2_000, 1e9);
        assertFalse(found.safe());
        assertEquals(HazardKind.WALK_AFTER_FREE, found.hazard().kind());
        ExploreResult unseen = new Explorer(on.copy().set("speculation", "off")).explore(new RandomStrategy(1), 2_000, 1e9);
        assertTrue(unseen.safe(), "no walk, no walk after free");
    }
}
