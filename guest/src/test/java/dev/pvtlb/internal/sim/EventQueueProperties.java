package dev.pvtlb.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

class EventQueueProperties {
    private record Tagged(long time, int seq) implements Event {
        @Override
        public void fire(Engine engine) { }
    }

    @Property(tries = 200)
    void pollsInTimeThenInsertionOrder(@ForAll @Size(max = 300) List<@LongRange(min = 0, max = 50) Long> times) {
        EventQueue q = new EventQueue();
        List<Tagged> all = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            Tagged t = new Tagged(times.get(i), i);
            all.add(t);
            q.add(t, t.time());
        }
        all.sort(Comparator.comparingLong(Tagged::time).thenComparingInt(Tagged::seq));
        List<Event> polled = new ArrayList<>();
        while (!q.isEmpty()) {
            polled.add(q.poll());
        }
        assertEquals(all, polled);
    }
}
