package dev.pvtlb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.run.RunReport;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** RunResults.standardError(): each mean's standard error carried through a figure (the delta method). */
class StandardErrorTest {
    private static RunReport run(double mean, double stdev, int reps) {
        return new RunReport("s", "native", Map.of(), Map.of(), "x86-skylake", 1, reps,
                Map.of("throughput", new RunReport.Summary(mean, stdev, "1/s")), Map.of("nr_tlb_remote_flush", 10L),
                Map.of(), List.of(), 0, 0, 0, Map.of(), Map.of(), "exact");
    }

    private static RunResults runs(RunReport a, RunReport b) {
        Map<String, RunReport> m = new LinkedHashMap<>();
        m.put("a", a);
        m.put("b", b);
        return new RunResults(m);
    }

    @Test
    void aChangeCarriesBothMeansErrors() {
        // a: 1000 +- 30/sqrt(9) = 10; b: 1100 +- 60/sqrt(9) = 20. change = 100 (b/a - 1) = +10%.
        // d change / d a = -100 b / a^2 = -0.11 per unit: 10 units -> moves of +-1.1% (finite differences:
        // (1100/990 - 1100/1010) / 2 * 100 = 1.10011); d change / d b = 100 / a: 20 units -> 2.0%.
        RunResults r = runs(run(1000, 30, 9), run(1100, 60, 9));
        double se = r.standardError(x -> ValidationExperiments.change(x.mean("a", "throughput"), x.mean("b", "throughput")));
        assertEquals(Math.sqrt(1.10011 * 1.10011 + 2.0 * 2.0), se, 1e-4);
    }

    @Test
    void countersAndSingleRepetitionsCarryNone() {
        RunResults r = runs(run(1000, 30, 9), run(1100, 60, 9));
        assertEquals(0, r.standardError(x -> x.counter("b", "nr_tlb_remote_flush") / x.counter("a", "nr_tlb_remote_flush")));
        RunResults once = runs(run(1000, 0, 1), run(1100, 0, 1));
        assertEquals(0, once.standardError(x -> x.mean("b", "throughput") / x.mean("a", "throughput")));
    }

    @Test
    void theLowestOfSeveralMovesWithTheOneThatIsLowest() {
        // min(a, b) = a = 1000: only a's error (10) moves it.
        RunResults r = runs(run(1000, 30, 9), run(1100, 60, 9));
        assertEquals(10, r.standardError(x -> Math.min(x.mean("a", "throughput"), x.mean("b", "throughput"))), 1e-9);
    }
}
