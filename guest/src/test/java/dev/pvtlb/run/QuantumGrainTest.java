package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * run, compare and validate let a CPU batch up to 500 ns of steps that no other CPU observes (the
 * default quantum); the explorer runs at quantum 0, every step at its own instant. The batching
 * must not move a result: each workload's metric, a mean over five seeds, stays within 2% of its
 * value at the explorer's grain. One seed alone may move more: where threads contend for the
 * mmap_lock's line, the grain changes who takes it first, and one order of acquisitions against
 * another moves tlb-flush2 by 3% (seed 1). The exact means pin what the model gives at this commit.
 */
class QuantumGrainTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "munmap-storm, munmap_ns, 95904.3185, 96036.604",
        "sysbench-mmap-rndwr, throughput, 148256, 148352",
        "tlb-flush2, loops_per_s, 601766.248114, 599077.21373"
    })
    void batchedStepsMoveAResultByLessThanTwoPercent(String workload, String metric, double batched, double exact) {
        double b = Runner.run(Scenario.of(workload).set("reps", "5")).metrics().get(metric).mean();
        double e = Runner.run(Scenario.of(workload).set("reps", "5").set("quantum", "0")).metrics().get(metric).mean();
        assertEquals(batched, b, batched * 1e-9);
        assertEquals(exact, e, exact * 1e-9);
        assertTrue(Math.abs(b / e - 1) < 0.02, workload + ": " + b + " batched vs " + e + " exact");
    }
}
