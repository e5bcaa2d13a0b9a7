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

    /**
     * A step that schedules its own next step before anything else is due (the engine holds that
     * event outside the heap) still meets every later event in the heap's order: one due at the
     * same instant is a tie the chooser orders, and one added earlier than it runs first.
     */
    @Test
    void anEventHeldAheadOfTheHeapKeepsTiesAndFifoOrder() {
        List<ChoicePoint> asked = new ArrayList<>();
        Engine e = new Engine((p, n) -> {
            asked.add(p);
            return n - 1;
        }, 0);
        List<String> log = new ArrayList<>();
        e.at(100, x -> log.add("late@" + x.now()));
        e.at(0, x -> {
            log.add("a@" + x.now());
            x.at(10, y -> log.add("a2@" + y.now())); // held: earlier than 100
            x.at(10, y -> log.add("b@" + y.now())); // a tie with the held one: FIFO a2, b; the chooser takes b
            x.at(5, y -> {
                log.add("c@" + y.now()); // earlier than the held one, added after it: runs first
                assertEquals(10, y.horizon()); // the next event, in the heap now, is the tie at 10
            });
        });
        e.run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of("a@0", "c@5", "b@10", "a2@10", "late@100"), log);
        assertEquals(List.of(ChoicePoint.ORDER), asked);
        assertEquals(5, e.steps());
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
