package dev.pvtlb.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.workload.MunmapStorm;
import dev.pvtlb.internal.workload.Params;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Scenario check 6: one seed gives identical counters and traces; seeds differ. */
class DeterminismTest {
    private static List<String> traceOf(long seed) {
        MunmapStorm w = new MunmapStorm();
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(4).seed(seed).build())) {
            List<String> t = new ArrayList<>();
            g.trace().subscribe(e -> t.add(e.toString()));
            w.setUp(g, new Params(w, Map.of("threads", "6", "ops", "10", "accesses", "500")));
            g.run(Long.MAX_VALUE);
            t.add(g.vmstat().asMap().toString());
            t.add(g.cpuTime().totals().toString());
            t.add("steps " + g.engine().steps() + " at " + g.engine().now());
            return t;
        }
    }

    @Test
    void sameSeedSameTraceAndCounters() {
        List<String> a = traceOf(42);
        List<String> b = traceOf(42);
        assertTrue(a.size() > 100, "a trace of " + a.size() + " events");
        assertEquals(a, b);
    }

    @Test
    void seedsChooseDifferentInterleavings() {
        Set<List<String>> distinct = new HashSet<>();
        for (long seed = 1; seed <= 4; seed++) {
            distinct.add(traceOf(seed));
        }
        assertTrue(distinct.size() > 1, "four seeds gave one and the same run");
    }

    @Test
    void sameSeedSameJsonReportApartFromHostTiming() {
        Scenario s = Scenario.of("munmap-storm").seed(7).set("ops", "5").set("threads", "8");
        RunReport a = Runner.run(s);
        RunReport b = Runner.run(s);
        assertEquals(strip(a), strip(b));
    }

    /** The report as data (what the JSON report is written from), without its wall-clock timing. */
    private static java.util.Map<String, Object> strip(RunReport r) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>(r.toMap());
        m.remove("host_timing");
        return m;
    }
}
