package dev.pvtlb.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.run.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** From an explorer's result to a trace file and back to a replay, with no hand parsing. */
class ExploreResultTraceFileTest {
    @Test
    void aFoundHazardBecomesATraceFileThatReplaysIt() {
        Scenario s = Scenario.of("lazy-speculative-walk").set("lazy", "skip-nofree").set("speculation", "on").seed(4);
        ExploreResult r = new Explorer(s).explore(new RandomStrategy(4), 200, 1e9);
        TraceFile t = r.toTraceFile();
        assertEquals("lazy-speculative-walk native 4 [lazy=skip-nofree, speculation=on]",
                t.scenario() + " " + t.backend() + " " + t.seed() + " " + t.settings());
        assertEquals(List.of(r.hazard().kind(), r.hazard().cpu(), r.hazard().timeNs(), r.shrunk()),
                List.of(t.kind(), t.cpu(), t.timeNs(), t.choices()));

        TraceFile back = TraceFile.parse(t.write(r.trace()));
        assertEquals(t, back);
        ScheduleRun again = Explorer.replay(back);
        assertTrue(back.reproducedBy(again), String.valueOf(again.hazard()));
        assertEquals(r.hazard(), again.hazard());
        assertEquals(r.trace(), again.stepLog(), "the same readable trace");
    }

    @Test
    void aRunWithoutTheRecordedHazardDoesNotReproduceIt() {
        TraceFile t = new TraceFile("lazy-speculative-walk", "native", 4, List.of("lazy=skip-nofree"),
                dev.pvtlb.hazard.HazardKind.WALK_AFTER_FREE, 1, 5000, List.of());
        assertFalse(t.reproducedBy(new ScheduleRun(List.of(), null, 10, List.of())));
    }

    @Test
    void aSafeResultHasNoTraceFile() {
        Scenario s = Scenario.of("lazy-speculative-walk").set("lazy", "skip").set("speculation", "on").seed(4);
        ExploreResult r = new Explorer(s).explore(new RandomStrategy(4), 20, 1e9);
        assertTrue(r.safe());
        IllegalStateException e = assertThrows(IllegalStateException.class, r::toTraceFile);
        assertEquals("no hazard was found: there is no schedule to replay", e.getMessage());
    }
}
