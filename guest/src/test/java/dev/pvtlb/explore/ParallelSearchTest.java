package dev.pvtlb.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.run.Scenario;
import org.junit.jupiter.api.Test;

/** Several schedules at once find what one thread finds, in as many schedules. */
class ParallelSearchTest {
    private static Scenario lazyBug() {
        return Scenario.of("lazy-speculative-walk").set("lazy", "skip-nofree").seed(1);
    }

    @Test
    void aRandomSearchOnThreeWorkersReportsTheSingleThreadsFind() {
        ExploreResult one = new Explorer(lazyBug()).explore(new RandomStrategy(1), 2_000, 1e9);
        ExploreResult three = new Explorer(lazyBug()).parallel(3).explore(new RandomStrategy(1), 2_000, 1e9);
        assertFalse(one.safe());
        assertEquals(HazardKind.WALK_AFTER_FREE, three.hazard().kind());
        assertEquals(one.foundAt(), three.foundAt());
        assertEquals(one.schedules(), three.schedules());
        assertEquals(one.hazard().toString(), three.hazard().toString());
        assertEquals(one.shrunk(), three.shrunk());
        assertEquals(one.trace(), three.trace());
    }

    @Test
    void aSafeSearchRunsTheWholeBudgetOnce() {
        Scenario safe = lazyBug().set("lazy", "skip");
        ExploreResult two = new Explorer(safe).parallel(2).explore(new RandomStrategy(1), 300, 1e9);
        assertTrue(two.safe());
        assertEquals(300, two.schedules());
    }

    @Test
    void aStrategyThatLearnsRunsOneScheduleAtATime() {
        assertFalse(new PctStrategy(1, 3).independent());
        assertTrue(new RandomStrategy(1).independent());
        ExploreResult one = new Explorer(lazyBug()).explore(new PctStrategy(1, 3), 2_000, 1e9);
        ExploreResult two = new Explorer(lazyBug()).parallel(2).explore(new PctStrategy(1, 3), 2_000, 1e9);
        assertEquals(one.foundAt(), two.foundAt());
        assertEquals(one.shrunk(), two.shrunk());
        assertThrows(IllegalArgumentException.class, () -> new Explorer(lazyBug()).parallel(0));
    }
}
