package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.stats.TimeCategory;
import dev.pvtlb.stats.TraceEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TimelineJsonTest {
    /** Two CPUs, one shootdown from cpu0 to cpu1, and a hazard on cpu1, booked as the model books them. */
    static Timeline oneShootdown() {
        Timeline t = new Timeline(2);
        t.interval(0, TimeCategory.USER, 0, 1000);
        t.interval(0, TimeCategory.KERNEL, 1000, 1500);
        t.interval(1, TimeCategory.USER, 0, 1700);
        t.flow("ipi", 0, 1500, 1, 1700);
        t.interval(0, TimeCategory.KERNEL, 1500, 1800); // continues the last slice: merged
        t.interval(0, TimeCategory.IPI_WAIT, 1800, 2250);
        t.interval(1, TimeCategory.FLUSH_HANDLER, 1700, 2200);
        t.interval(1, TimeCategory.KERNEL, 2200, 2200); // no time: left out
        t.traced(new TraceEvent(2300, 1, "hazard", null, 0, "STALE_TRANSLATION: load of 0x1000"));
        return t;
    }

    @Test
    void tracksFlowsAndTheHazardAreWrittenAsTraceEventFormat() {
        Map<String, String> about = new LinkedHashMap<>();
        about.put("scenario", "s");
        assertEquals("""
                {"displayTimeUnit":"ns","otherData":{"scenario":"s"},"traceEvents":[
                {"ph":"M","pid":1,"tid":0,"name":"process_name","args":{"name":"guest"}},
                {"ph":"M","pid":1,"tid":0,"name":"thread_name","args":{"name":"cpu0"}},
                {"ph":"M","pid":1,"tid":0,"name":"thread_sort_index","args":{"sort_index":0}},
                {"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"cpu1"}},
                {"ph":"M","pid":1,"tid":1,"name":"thread_sort_index","args":{"sort_index":1}},
                {"ph":"X","pid":1,"tid":0,"cat":"cpu","name":"user","ts":0.000,"dur":1.000},
                {"ph":"X","pid":1,"tid":0,"cat":"cpu","name":"kernel","ts":1.000,"dur":0.800},
                {"ph":"X","pid":1,"tid":1,"cat":"cpu","name":"user","ts":0.000,"dur":1.700},
                {"ph":"X","pid":1,"tid":0,"cat":"cpu","name":"ipi_wait","ts":1.800,"dur":0.450},
                {"ph":"X","pid":1,"tid":1,"cat":"cpu","name":"flush_handler","ts":1.700,"dur":0.500},
                {"ph":"s","pid":1,"cat":"flow","name":"ipi","id":1,"tid":0,"ts":1.500},
                {"ph":"f","bp":"e","pid":1,"cat":"flow","name":"ipi","id":1,"tid":1,"ts":1.700},
                {"ph":"i","s":"t","pid":1,"tid":1,"cat":"tracepoint","name":"hazard","ts":2.300,"args":{"explanation":"STALE_TRANSLATION: load of 0x1000"}}
                ]}
                """, TimelineJson.write(oneShootdown(), about));
    }

    @Test
    void aTlbFlushTracepointIsAnInstantWithItsReasonAndPages() {
        Timeline t = new Timeline(1);
        t.traced(new TraceEvent(5, 0, "tlb:tlb_flush", dev.pvtlb.stats.TlbFlushReason.TLB_LOCAL_MM_SHOOTDOWN, TraceEvent.FLUSH_ALL, ""));
        assertEquals(List.of(new Timeline.Mark(0, 5, "tlb:tlb_flush", "reason:TLB_LOCAL_MM_SHOOTDOWN pages:-1")), t.marks());
    }

    @Test
    void microsecondsKeepEveryNanosecond() {
        assertEquals("0.000", TimelineJson.us(0));
        assertEquals("0.007", TimelineJson.us(7));
        assertEquals("0.070", TimelineJson.us(70));
        assertEquals("123456.789", TimelineJson.us(123_456_789));
        assertEquals("-1.050", TimelineJson.us(-1050));
    }
}
