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

    /** Cancelled timers, whether dropped at the root or by a rebuild of the heap, leave the others' order as it was. */
    @Property(tries = 200)
    void cancelledTimersNeverComeOutAndTheRestKeepTheirOrder(
            @ForAll @Size(max = 400) List<@LongRange(min = 0, max = 60) Long> times,
            @ForAll @Size(max = 400) List<Boolean> cancel) {
        EventQueue q = new EventQueue();
        List<Event> live = new ArrayList<>();
        List<Timer> timers = new ArrayList<>();
        List<long[]> keys = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            Timer t = new Timer(x -> { }, 0);
            q.add(t, times.get(i));
            timers.add(t);
            keys.add(new long[] {times.get(i), i});
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.<Integer>comparingLong(i -> keys.get(i)[0]).thenComparingInt(i -> i));
        for (int i = 0; i < timers.size(); i++) {
            if (i < cancel.size() && cancel.get(i)) {
                timers.get(i).markCancelled();
                q.cancelled(timers.get(i));
            }
        }
        for (int i : order) {
            if (!timers.get(i).done()) {
                live.add(timers.get(i));
            }
        }
        List<Event> polled = new ArrayList<>();
        while (!q.isEmpty()) {
            polled.add(q.poll());
        }
        assertEquals(live, polled);
    }
}
