package dev.pvtlb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.run.RunReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The measurement window of each experiment and the steady-state check of {@code validate --steady}. */
class SteadyStateTest {
    /** A report of {@code reps} repetitions that together simulated {@code simulatedS}, with one metric. */
    private static RunReport report(String metric, double mean, double simulatedS, int reps) {
        Map<String, RunReport.Summary> metrics = new LinkedHashMap<>();
        metrics.put(metric, new RunReport.Summary(mean, 0, "ms"));
        return new RunReport("mprotect-noise", "arm64", Map.of(), Map.of(), "arm64-thunderx2", 1, reps, metrics, Map.of(), Map.of(),
                List.of(), 0, simulatedS, 0, Map.of(), Map.of(), "exact");
    }

    private static RunResults arm64(double alone, double broadcast, double local, double simulatedS) {
        return new RunResults(Map.of("arm-alone", report("victim_ms", alone, simulatedS, 3),
                "arm-broadcast", report("victim_ms", broadcast, simulatedS * 2, 3),
                "arm-local", report("victim_ms", local, simulatedS * 4, 3)));
    }

    @Test
    void aFigureMayMoveByAQuarterOfItsBandsWidth() {
        assertEquals(1.8, Band.closed(0.8, 8).steadyTolerance(2.95), 1e-12);
        assertEquals(0.5, Band.open(-1, 1).steadyTolerance(-0.09), 1e-12);
        // open above: the margin of the published figure over the band's one end
        assertEquals(0.6, Band.atLeast(-1).steadyTolerance(1.4), 1e-12);
        assertEquals(38.93, Band.atLeast(30).steadyTolerance(185.72), 1e-9);
        // +-35% of 20 ns is 14 ns wide
        assertEquals(3.5, Band.around(20, 0.35).steadyTolerance(20), 1e-12);
    }

    @Test
    void doublingARunDoublesTheParameterThatSetsItsLength() {
        ValidationRun smt = ValidationVerdictTest.experiment("smt-dedup").runs().get(0);
        ValidationRun twice = smt.doubled();
        assertEquals("smt-false-t0@2x", twice.key());
        assertTrue(twice.sets().contains("ops=8192"), twice.sets().toString());
        assertFalse(twice.sets().contains("ops=4096"), twice.sets().toString());
        // the program unmaps each mapping of its region once: 2 x 262144 pages for 8192 mappings of 64
        assertTrue(twice.sets().contains("region=524288"), twice.sets().toString());
        assertEquals(smt.sets().size() + 1, twice.sets().size());
        // netperf-rr sets no ops: its default (100) doubles
        ValidationRun lazy = ValidationVerdictTest.experiment("lazy-tlb").runs().get(0);
        assertEquals("200", lazy.doubled().setting("ops"));
        // ebizzy with ops=timed runs host slices: 20 by default
        ValidationRun kvm = ValidationVerdictTest.experiment("kvm-boost").runs().get(0);
        assertEquals("host_slices", kvm.lengthKey());
        assertEquals("40", kvm.doubled().setting("host_slices"));
        assertEquals("timed", kvm.doubled().setting("ops"));
    }

    @Test
    void aRunWhoseLengthIsNoCountCannotBeDoubled() {
        dev.pvtlb.model.ModelException e = org.junit.jupiter.api.Assertions.assertThrows(dev.pvtlb.model.ModelException.class,
                () -> ValidationRun.of("eb", "ebizzy", "vms=1").doubled());
        assertEquals("run eb: cannot double its window: ops=auto is not a count", e.getMessage());
    }

    @Test
    void theWindowIsOneRepetitionsSimulatedTimeOverTheExperimentsRuns() {
        ValidationResult r = ValidationResult.of(ValidationVerdictTest.experiment("arm64-noise"), arm64(10, 11, 10, 0.003));
        MeasurementWindow w = r.window();
        // 0.001, 0.002 and 0.004 s per repetition
        assertEquals(0.007 / 3, w.measuredS(), 1e-15);
        assertEquals(0.001, w.shortestS(), 1e-15);
        assertEquals(0.004, w.longestS(), 1e-15);
        assertEquals(0.0, w.warmupS());
        assertEquals("0 s warm-up, 0.002333 s measured (0.001000..0.004000 s per run, set by ops)", w.describe());
    }

    @Test
    void aFigureThatDriftsWithTheWindowIsNotSteady() {
        ValidationResult mid = ValidationResult.of(ValidationVerdictTest.experiment("arm64-noise"), arm64(10, 11, 10, 0.003));
        // doubled: broadcast noise x1.10 -> x1.20 (band [1.10, 1.45], tolerance 0.0875); local x1.00 -> x1.01 (tolerance 0.02)
        SteadyState s = SteadyState.of(List.of(mid), arm64(10, 12, 10.1, 0.006));
        SteadyState.Figure broadcast = s.figure("arm64-noise", 0);
        assertEquals(1.2, broadcast.doubled(), 1e-12);
        assertEquals(0.0875, broadcast.tolerance(), 1e-12);
        assertFalse(broadcast.steady());
        SteadyState.Figure local = s.figure("arm64-noise", 1);
        assertEquals(0.01, local.moved(), 1e-12);
        assertTrue(local.steady());
        assertEquals(1, s.steadyCount());
        Map<String, Object> json = new ValidationReport(List.of(mid)).toMap(s);
        @SuppressWarnings("unchecked")
        Map<String, Object> e = (Map<String, Object>) ((List<Object>) json.get("experiments")).get(0);
        @SuppressWarnings("unchecked")
        Map<String, Object> w = (Map<String, Object>) e.get("window");
        assertEquals(0.0, w.get("warmup_s"));
        assertEquals(0.014 / 3, (double) w.get("doubled_s"), 1e-15);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> figures = (List<Map<String, Object>>) e.get("figures");
        assertEquals(List.of(false, true), figures.stream().map(f -> f.get("steady")).toList());
    }
}
