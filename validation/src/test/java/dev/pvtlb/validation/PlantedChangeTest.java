package dev.pvtlb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.report.ProgressBar;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every experiment of {@code pvtlb validate} can fail: for each, one deliberate change to the model
 * (a knob or a profile figure that breaks the mechanism the experiment is about), set on every run
 * of the experiment, turns its verdict to fail. A check that no plausible model change could fail
 * would be no evidence. The experiments' own runs are used, with the change appended.
 */
class PlantedChangeTest {
    /** The experiment {@code id} with {@code plant} added to every one of its runs, under the runs' own keys. */
    private static ValidationResult planted(String id, String plant) throws InterruptedException {
        ValidationExperiment x = ValidationExperiments.select(List.of(id)).get(0);
        List<ValidationRun> runs = new ArrayList<>();
        for (ValidationRun r : x.runs()) {
            List<String> sets = new ArrayList<>(r.sets());
            sets.add(plant);
            runs.add(new ValidationRun(r.key(), r.scenario(), r.backend(), List.copyOf(sets)));
        }
        ProgressBar quiet = new ProgressBar(new PrintWriter(new StringWriter()), true);
        return ValidationResult.of(x, ValidationRunner.run(runs, Runtime.getRuntime().availableProcessors(), quiet));
    }

    private static double figure(ValidationResult r, String name) {
        return r.figures().stream().filter(f -> f.figure().name().equals(name)).findFirst().orElseThrow().emulated();
    }

    /** Without the series' mechanisms (no overlap, a shared cpu_tlbstate line) the two sides are one kernel. */
    @Test
    void concurrentFlushFailsWithoutTheSeries() throws Exception {
        ValidationResult r = planted("concurrent-flush", "native.concurrentFlush=false");
        assertFalse(r.pass());
        assertEquals(0.0, figure(r, "throughput change, mean of 2..56 threads"), 1e-9);
    }

    /** A kernel that never leaves lazy TLB mode off has nothing to gain from the series. */
    @Test
    void lazyTlbFailsWhenBothSidesKeepLazyTlbOff() throws Exception {
        ValidationResult r = planted("lazy-tlb", "lazy=off");
        assertFalse(r.pass());
        assertEquals(0.0, figure(r, "transactions/s change"), 1e-9);
    }

    /**
     * RCU table freeing costs its softirq: at 200 us for each callback rcu_do_batch() invokes, the
     * deferred frees are no longer "no notable difference". The immediate policy pays none of it.
     */
    @Test
    void rcuTableFreeFailsWhenTheDeferredFreeIsCostly() throws Exception {
        ValidationResult r = planted("rcu-table-free", "profile.rcu.callback.ns=200000");
        assertFalse(r.pass());
        assertTrue(figure(r, "elapsed change at 6 CPUs") >= 1, r.figures().toString());
    }

    /** Without the patch on either side, every sibling still takes its IPI. */
    @Test
    void smtDedupFailsWithoutThePatch() throws Exception {
        ValidationResult r = planted("smt-dedup", "native.smtSiblingDedup=false");
        assertFalse(r.pass());
        assertEquals(1.0, figure(r, "nr_tlb_remote_flush_received ratio"), 1e-9);
    }

    /** A load that hits L1 and the TLB at 20 ns instead of 4 cycles puts the access time far past 20 ns +-35%. */
    @Test
    void smtDedupAbsoluteFailsWithASlowL1() throws Exception {
        ValidationResult r = planted("smt-dedup-absolute", "profile.access.ns=20");
        assertFalse(r.pass());
        assertTrue(figure(r, "memory access") > 27, r.figures().toString());
    }

    /** A TLBI that reaches only mm_cpumask's CPUs leaves the victim alone: no noise to measure. */
    @Test
    void arm64NoiseFailsWhenTlbiIsNotBroadcast() throws Exception {
        ValidationResult r = planted("arm64-noise", "arm64.flush=local");
        assertFalse(r.pass());
        assertEquals(1.0, figure(r, "victim time with noise / alone, broadcast TLBI"), 0.005);
    }

    /** A host without the boost on both sides gains nothing under overcommit. */
    @Test
    void kvmBoostFailsWithoutTheBoost() throws Exception {
        ValidationResult r = planted("kvm-boost", "kvm.boost=false");
        assertFalse(r.pass());
        assertEquals(0.0, figure(r, "records/s change, 2 VMs"), 1e-9);
    }

    /** A guest that never yields to a preempted target gains nothing. */
    @Test
    void kvmSchedYieldFailsWithoutTheYield() throws Exception {
        ValidationResult r = planted("kvm-sched-yield", "kvm.pvSchedYield=false");
        assertFalse(r.pass());
        assertEquals(0.0, figure(r, "records/s change"), 1e-9);
    }
}
