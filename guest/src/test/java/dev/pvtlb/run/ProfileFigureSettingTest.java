package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.profile.Profile;
import org.junit.jupiter.api.Test;

/** {@code --set profile.KEY=VALUE}: one figure of the profile replaced for a run (what validate --sensitivity sets). */
class ProfileFigureSettingTest {
    @Test
    void aFigureSettingReplacesThatFigureOnlyAndSurvivesACopy() {
        Scenario s = Scenario.of("munmap-storm").set("profile.ipi.send.ns", "150");
        Profile p = s.copy().guestConfig(0).profile();
        assertEquals(150, p.ns("ipi.send.ns"));
        assertEquals(100, p.ns("invlpg.ns"));
        assertEquals("x86-skylake", p.name());
        assertEquals(50, Scenario.of("munmap-storm").guestConfig(0).profile().ns("ipi.send.ns"));
    }

    @Test
    void aFigureChangesTheRunItIsSetOn() {
        RunReport base = Runner.run(Scenario.of("munmap-storm").set("ops", "5"));
        RunReport dear = Runner.run(Scenario.of("munmap-storm").set("ops", "5").set("profile.pte.op.ns", "30"));
        double a = base.metrics().get("munmap_ns").mean();
        double b = dear.metrics().get("munmap_ns").mean();
        assertTrue(b > a + 64 * 15, a + " -> " + b); // 64 PTEs each 20 ns dearer, less the part run in parallel
    }

    @Test
    void badFigureSettingsAreOneLineErrors() {
        assertEquals("unknown profile figure 'ipi.sendns' in profile.ipi.sendns (figures: " + String.join(", ", Profile.KEYS) + ")",
                assertThrows(ModelException.class, () -> Scenario.of("munmap-storm").set("profile.ipi.sendns", "1")).getMessage());
        assertEquals("profile.ipi.send.ns must be a number, got 'fast'",
                assertThrows(ModelException.class, () -> Scenario.of("munmap-storm").set("profile.ipi.send.ns", "fast")).getMessage());
        assertEquals("profile.ipi.send.ns must be between 0 and 1e12, got -3",
                assertThrows(ModelException.class, () -> Scenario.of("munmap-storm").set("profile.ipi.send.ns", "-3")).getMessage());
    }
}
