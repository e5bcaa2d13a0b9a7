package dev.pvtlb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TraceStreamTest {
    @Test
    void aClearedStreamHasNoSubscriberAndBuildsNoEvents() {
        TraceStream t = new TraceStream();
        List<TraceEvent> seen = new ArrayList<>();
        t.subscribe(seen::add);
        t.tlbFlush(10, 2, TlbFlushReason.TLB_REMOTE_SHOOTDOWN, 3);
        assertEquals(1, seen.size());
        assertEquals("tlb:tlb_flush", seen.getFirst().name());
        assertEquals(3, seen.getFirst().pages());
        t.clear();
        t.tlbFlush(20, 2, TlbFlushReason.TLB_REMOTE_SHOOTDOWN, 1);
        assertEquals(1, seen.size(), "the subscriber of before the reset is gone");
        List<TraceEvent> after = new ArrayList<>();
        t.subscribe(after::add);
        t.event(30, 1, "pv_ops:flush_tlb_multi", "cpus=2");
        assertEquals(List.of("pv_ops:flush_tlb_multi"), after.stream().map(TraceEvent::name).toList());
    }

    @Test
    void closingASubscriptionStopsDeliveryToThatSubscriberOnly() {
        TraceStream t = new TraceStream();
        List<String> a = new ArrayList<>();
        List<String> b = new ArrayList<>();
        TraceStream.Subscription sa = t.subscribe(e -> a.add(e.name()));
        t.subscribe(e -> b.add(e.name()));
        t.event(1, 0, "one", "");
        sa.close();
        t.event(2, 0, "two", "");
        sa.close(); // twice: nothing more happens
        assertEquals(List.of("one"), a);
        assertEquals(List.of("one", "two"), b);
    }

    @Test
    void aSubscriberMayUnsubscribeItselfWhileAnEventIsDelivered() {
        TraceStream t = new TraceStream();
        List<Long> seen = new ArrayList<>();
        TraceStream.Subscription[] self = new TraceStream.Subscription[1];
        self[0] = t.subscribe(e -> {
            seen.add(e.time());
            self[0].close();
        });
        List<Long> other = new ArrayList<>();
        t.subscribe(e -> other.add(e.time()));
        t.event(5, 0, "x", "");
        t.event(6, 0, "y", "");
        assertEquals(List.of(5L), seen);
        assertEquals(List.of(5L, 6L), other);
    }
}
