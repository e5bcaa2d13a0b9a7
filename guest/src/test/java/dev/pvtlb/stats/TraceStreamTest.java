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
}
