package dev.pvtlb.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Both benchmark methods outside JMH: events come back in time order and the depth holds. */
class EventQueueBenchTest {

    private static EventQueueBench bench(int depth) {
        EventQueueBench b = new EventQueueBench();
        b.depth = depth;
        b.setUp();
        return b;
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 1024})
    void holdPollsInTimeOrderAtAConstantDepth(int depth) {
        EventQueueBench b = bench(depth);
        long last = 0;
        for (int i = 0; i < 3 * depth; i++) {
            long t = b.hold();
            assertTrue(t >= last, "event due at " + t + " polled after one due at " + last);
            last = t;
        }
        assertEquals(depth, b.queue.size());
        while (!b.queue.isEmpty()) {
            long t = b.queue.peekTime();
            assertTrue(t >= last, "drain: " + t + " after " + last);
            last = t;
            b.queue.poll();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {16, 1024})
    void engineStepRunsExactlyOneEventAndTheClockNeverGoesBack(int depth) {
        EventQueueBench b = bench(depth);
        long last = 0;
        for (int i = 0; i < 3 * depth; i++) {
            long now = b.engineStep();
            assertTrue(now >= last, now + " after " + last);
            last = now;
        }
        assertEquals(3L * depth, b.engine.steps());
        assertTrue(last > 0);
    }
}
