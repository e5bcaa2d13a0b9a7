package dev.pvtlb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.study.ScenarioArgs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The error of the fast level against exact, guarded (docs/fidelity.md): on flush-heavy runs of
 * bare-metal, SMT and KVM machines every metric within 3%, every nr_tlb_* and IPI counter of 100
 * or more within 2%, the same hazard kinds, and no more steps; on an experiment of validate, the
 * same figures within the tolerance of their unit and the same verdict.
 */
class FidelityToleranceTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "munmap-storm|native|vcpus=16 ops=50",
        "sysbench-mmap-rndwr|native|vcpus=56",
        "tlb-flush2|native|vcpus=36 threads=36",
        "munmap-storm|xen-pv|vcpus=8 ops=20",
        "sysbench-mmap-rndwr|native|threads=56 ops=100",
        "ebizzy|kvm|vms=2 ops=8",
    })
    void fastIsWithinTheToleranceOfExact(String scenario, String backend, String sets) {
        List<String> s = List.of(sets.split(" "));
        List<String> fastSets = new ArrayList<>(s);
        fastSets.add("fidelity=fast");
        RunReport exact = Runner.run(ScenarioArgs.build(scenario, backend, s, 1L, null));
        RunReport fast = Runner.run(ScenarioArgs.build(scenario, backend, fastSets, 1L, null));
        assertEquals("exact", exact.fidelity());
        assertEquals("fast", fast.fidelity());
        List<String> outside = new ArrayList<>();
        exact.metrics().forEach((k, m) -> {
            double a = m.mean();
            double b = fast.metrics().get(k).mean();
            if (a != 0 && Math.abs(b / a - 1) > 0.03) {
                outside.add(k + " " + a + " vs " + b);
            }
        });
        for (Map.Entry<String, Long> c : exact.counters().entrySet()) {
            String k = c.getKey();
            long a = c.getValue();
            long b = fast.counters().get(k);
            if ((k.startsWith("nr_tlb") || k.equals("ipis_sent") || k.equals("hypercalls")) && a >= 100 && Math.abs((double) b / a - 1) > 0.02) {
                outside.add(k + " " + a + " vs " + b);
            }
        }
        assertEquals(List.of(), outside, scenario + " " + sets);
        assertEquals(exact.hazards().stream().map(h -> h.hazard().kind()).distinct().sorted().toList(),
                fast.hazards().stream().map(h -> h.hazard().kind()).distinct().sorted().toList());
        assertTrue(fast.steps() <= exact.steps(), fast.steps() + " fast steps against " + exact.steps());
    }

    @Test
    void theToleranceIsOnePointForAChangeTwoPercentForARatioThreeForATime() {
        assertTrue(FidelityCheck.within(FigureUnit.PERCENT, -6.78, -7.78));
        assertFalse(FidelityCheck.within(FigureUnit.PERCENT, -6.78, -8.47));
        assertTrue(FidelityCheck.within(FigureUnit.RATIO, 0.50, 0.509));
        assertFalse(FidelityCheck.within(FigureUnit.RATIO, 0.43, 0.45));
        assertTrue(FidelityCheck.within(FigureUnit.NS, 11737, 11642));
        assertFalse(FidelityCheck.within(FigureUnit.NS, 1000, 1031));
        assertFalse(FidelityCheck.within(FigureUnit.NS, Double.NaN, 1));
        assertEquals("-1.69 pp", FidelityCheck.difference(FigureUnit.PERCENT, -6.78, -8.47));
        assertEquals("+4.65%", FidelityCheck.difference(FigureUnit.RATIO, 0.43, 0.45));
    }

    @Test
    void anExperimentOfValidateAgreesAtBothLevels() throws InterruptedException {
        List<ValidationExperiment> xs = ValidationExperiments.select(List.of("rcu-table-free"));
        FidelityCheck c = FidelityCheck.run(xs, ValidationRunner.runsOf(xs), 2, new dev.pvtlb.report.ProgressBar(
                new java.io.PrintWriter(java.io.Writer.nullWriter()), true));
        assertEquals(0, c.disagreements(), c.markdown());
        assertFalse(c.exact().isEmpty());
        Map<String, Object> json = c.toMap();
        assertEquals(0, json.get("disagreements"));
    }
}
