package dev.pvtlb.internal.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import org.junit.jupiter.api.Test;

class LatencyRecorderTest {
    @Test
    void percentilesComeFromEverySample() {
        LatencyRecorder r = new LatencyRecorder();
        for (int ns = 1; ns <= 100; ns++) {
            r.addNs(ns);
        }
        r.addBatch(1_300 * 900, 900); // 900 accesses of 1.3 ns
        org.HdrHistogram.Histogram h = r.histogramPs();
        assertEquals(1.3, h.getValueAtPercentile(50) / 1000.0, 0.01, "900 of the 1000 samples are 1.3 ns");
        // Sorted: 1 ns, 900 x 1.3 ns, then 2..100 ns: the 990th sample is 90 ns.
        assertEquals(90.0, h.getValueAtPercentile(99) / 1000.0, 0.1);
        assertEquals(100.0, h.getMaxValue() / 1000.0, 0.1);
        assertEquals((5050 + 1170) / 1000.0, r.meanNs(), 1e-9);
    }

    @Test
    void runsOfEqualBatchesGiveTheHistogramOfEveryBatchAddedAlone() {
        LatencyRecorder coalesced = new LatencyRecorder();
        org.HdrHistogram.Histogram alone = new org.HdrHistogram.Histogram(3);
        long[][] batches = {{1300, 10}, {1300, 5}, {2600, 2}, {2600, 1}, {1300, 7}, {900, 1}};
        for (long[] b : batches) {
            coalesced.addBatch(b[0] * b[1], b[1]);
            alone.recordValueWithCount(b[0], b[1]);
        }
        org.HdrHistogram.Histogram h = coalesced.histogramPs();
        assertEquals(alone, h);
        assertEquals(26, h.getTotalCount());
        coalesced.addBatch(900, 1);
        assertEquals(27, coalesced.histogramPs().getTotalCount(), "a batch after a read still counts");
    }

    @Test
    void aRunReportsPercentilesOfItsLatencyMetricsOverAllRepetitions() {
        RunReport rep = Runner.run(Scenario.of("munmap-storm").set("ops", "3").set("threads", "8").reps(2));
        RunReport.Percentiles p = rep.latency().get("munmap_ns");
        assertTrue(p.p50() > 0 && p.p50() <= p.p99() && p.p99() <= p.max(), p.toString());
        Object metric = ((java.util.Map<?, ?>) rep.toMap().get("metrics")).get("munmap_ns");
        assertEquals(java.util.List.of("mean", "stdev", "unit", "p50", "p99", "max"),
                java.util.List.copyOf(((java.util.Map<?, ?>) metric).keySet()), String.valueOf(metric));
    }
}
