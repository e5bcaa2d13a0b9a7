package dev.pvtlb.internal.sim;

import dev.pvtlb.model.ChoicePoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EngineTest {
    @Test
    void eventsRunInTimeOrderAndEqualTimesAskTheChooser() {
        List<ChoicePoint> asked = new ArrayList<>();
        Engine e = new Engine((p, n) -> {
            asked.add(p);
            return n - 1; // always the last of the tied events
        }, 0);
        List<String> log = new ArrayList<>();
        e.at(20, x -> log.add("b@" + x.now()));
        e.at(10, x -> log.add("a@" + x.now()));
        e.at(20, x -> log.add("c@" + x.now()));
        e.run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of("a@10", "c@20", "b@20"), log);
        assertEquals(List.of(ChoicePoint.ORDER), asked);
        assertEquals(3, e.steps());
    }

    @Test
    void runStopsAtTheTimeLimitAndResumes() {
        Engine e = new Engine(new SeededChooser(1), 0);
        List<Long> log = new ArrayList<>();
        for (long t = 0; t < 100; t += 10) {
            e.at(t, x -> log.add(x.now()));
        }
        e.run(45, Long.MAX_VALUE);
        assertEquals(5, log.size());
        e.run(Long.MAX_VALUE, 2);
        assertEquals(List.of(0L, 10L, 20L, 30L, 40L, 50L, 60L), log);
    }

    @Test
    void horizonIsTheNextEventPlusTheQuantum() {
        Engine exact = new Engine(new SeededChooser(1), 0);
        exact.at(500, x -> { });
        assertEquals(500, exact.horizon());
        Engine loose = new Engine(new SeededChooser(1), 1000);
        loose.at(500, x -> { });
        assertEquals(1500, loose.horizon());
        assertEquals(Long.MAX_VALUE, new Engine(new SeededChooser(1), 0).horizon());
    }

    @Test
    void chooseInRangeSpansTheBoundsInEvenSteps() {
        Engine e = new Engine((p, n) -> n - 1, 0);
        assertEquals(900, e.chooseInRange(ChoicePoint.IPI_LATENCY, 300, 900, 4));
        Engine first = new Engine((p, n) -> 0, 0);
        assertEquals(300, first.chooseInRange(ChoicePoint.IPI_LATENCY, 300, 900, 4));
        Engine second = new Engine((p, n) -> 1, 0);
        assertEquals(500, second.chooseInRange(ChoicePoint.IPI_LATENCY, 300, 900, 4));
    }

    @Test
    void negativeQuantumIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Engine(new SeededChooser(1), -1));
    }

    @Test
    void rngStreamsArePerPurposeAndStable() {
        Rng r = new Rng(5);
        assertEquals(r.forPurpose("a").nextLong(), new Rng(5).forPurpose("a").nextLong());
        org.junit.jupiter.api.Assertions.assertNotEquals(r.forPurpose("a").nextLong(), r.forPurpose("b").nextLong());
    }
}
