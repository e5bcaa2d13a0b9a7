package dev.pvtlb.internal.sim;

import dev.pvtlb.model.ChoicePoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    /**
     * A cancelled timer is gone from the run: it does not fire, is no step, does not bound the
     * horizon and is no option when events tie, wherever it waited (held ahead of the heap, in the
     * heap, at the heap's root, or among the events due now); cancelling one that fired does nothing.
     */
    @Test
    void aCancelledTimerNeitherFiresNorCountsNorTies() {
        List<Integer> options = new ArrayList<>();
        Engine e = new Engine((p, n) -> {
            options.add(n);
            return 0;
        }, 0);
        List<String> log = new ArrayList<>();
        Timer held = e.timer(5, x -> log.add("held"));
        e.cancel(held); // held ahead of the heap (strictly earlier than everything in it)
        e.at(10, x -> log.add("a@" + x.now()));
        Timer tie = e.timer(10, x -> log.add("tie"));
        e.at(10, x -> log.add("b@" + x.now()));
        e.cancel(tie); // in the heap: a and b still tie, two options, not three
        Timer root = e.timer(7, x -> log.add("root"));
        assertEquals(7, e.horizon());
        e.cancel(root); // at the heap's root: the horizon is the next live event
        assertEquals(10, e.horizon());
        Timer[] dueNow = new Timer[1];
        e.at(30, x -> {
            log.add("c@" + x.now());
            x.cancel(dueNow[0]); // already drawn among the events due at 30
        });
        dueNow[0] = e.timer(30, x -> log.add("due"));
        e.at(30, x -> log.add("d@" + x.now()));
        Timer fired = e.timer(40, x -> log.add("fired@" + x.now()));
        e.run(Long.MAX_VALUE, Long.MAX_VALUE);
        e.cancel(fired); // after it fired: nothing
        assertEquals(List.of("a@10", "b@10", "c@30", "d@30", "fired@40"), log);
        assertEquals(List.of(2, 3), options); // a, b at 10; c, due, d at 30 (due cancelled once c ran)
        assertEquals(5, e.steps());
    }

    /** A timer queued before a reset (the explorer's next schedule) is gone with the queue: cancelling it later touches nothing. */
    @Test
    void aTimerFromBeforeAResetIsNotCancelledAgain() {
        Engine e = new Engine(new SeededChooser(1), 0);
        Timer old = e.timer(100, x -> { });
        e.at(200, x -> { });
        e.reset();
        List<String> log = new ArrayList<>();
        e.at(50, x -> log.add("a@" + x.now()));
        e.at(60, x -> log.add("b@" + x.now()));
        Timer live = e.timer(100, x -> log.add("live@" + x.now())); // in the heap, below b
        e.cancel(old);
        assertEquals(0, e.cancelledPending(), "nothing of the new queue counts as cancelled");
        e.cancel(live);
        assertEquals(1, e.cancelledPending());
        e.run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(List.of("a@50", "b@60"), log);
        assertEquals(0, e.cancelledPending(), "dropped when it surfaced");
        assertEquals(2, e.steps());
    }

    /** Thousands of cancelled timers (a host voiding slice timers) are dropped without reordering the live events. */
    @Test
    void manyCancelledTimersLeaveTheLiveOrder() {
        Engine e = new Engine(new SeededChooser(1), 0);
        List<Long> log = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            long t = 1000 + (i * 7919L) % 3001;
            Timer timer = e.timer(t, x -> log.add(-x.now()));
            if (i % 10 != 0) {
                e.cancel(timer);
            } else {
                e.at(t + 1, x -> log.add(x.now()));
            }
        }
        e.run(Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(1000, e.steps());
        long last = 0;
        for (long v : log) {
            assertTrue(Math.abs(v) >= last, "out of time order at " + v);
            last = Math.abs(v);
        }
        assertEquals(-1000, log.get(0));
        assertEquals(1001, log.get(1));
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
