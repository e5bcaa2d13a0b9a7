package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * run, compare and validate let a CPU batch up to 500 ns of steps that no other CPU observes (the
 * default quantum); the explorer runs at quantum 0, every step at its own instant. The batching
 * must not move a result: each workload's metric stays within 2% of its value at the explorer's
 * grain. The exact means pin what the model gives at this commit.
 */
class QuantumGrainTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "munmap-storm, munmap_ns, 5628.215, 5706.26375",
        "sysbench-mmap-rndwr, throughput, 4077119.998878792, 4074443.261547267", // 4017748.403572783, 4011181.1675044186 at ops=200
        "tlb-flush2, loops_per_s, 594992.1494091398, 592487.7490814383"
    })
    void batchedStepsMoveAResultByLessThanTwoPercent(String workload, String metric, double batched, double exact) {
        double b = Runner.run(Scenario.of(workload)).metrics().get(metric).mean();
        double e = Runner.run(Scenario.of(workload).set("quantum", "0")).metrics().get(metric).mean();
        assertEquals(batched, b, batched * 1e-9);
        assertEquals(exact, e, exact * 1e-9);
        assertTrue(Math.abs(b / e - 1) < 0.02, workload + ": " + b + " batched vs " + e + " exact");
    }
}
