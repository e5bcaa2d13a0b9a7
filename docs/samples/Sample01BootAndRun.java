package samples;

import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.stats.Counter;

/**
 * Sample 1: build a built-in scenario in Java, run it, read the report.
 * The same run from the command line: {@code pvtlb run munmap-storm --set threads=8 --set ops=20 --seed 42}.
 */
public final class Sample01BootAndRun {
    public static void main(String[] args) {
        // A scenario is a workload (here the built-in "munmap-storm") plus settings. set() takes
        // the keys of the command line's --set: workload parameters, machine keys, knobs.
        Scenario s = Scenario.of("munmap-storm")
                .set("threads", "8")  // 8 threads of one process, one per CPU of the default 1x4x2 machine
                .set("ops", "20")     // each maps, touches and unmaps a region 20 times
                .seed(42);            // same seed, same run: every number below is reproducible

        // Runner boots a fresh guest per repetition, runs the workload to the end and sums up.
        RunReport r = Runner.run(s);
        System.out.printf("scenario %s, backend %s, profile %s, seed %d%n", r.scenario(), r.backend(), r.profile(), r.seed());
        System.out.printf("simulated %.6f s in %d steps%n", r.simulatedS(), r.steps());

        // The workload's metrics: mean over repetitions, with the unit the workload gave.
        r.metrics().forEach((name, m) -> System.out.printf("metric  %-12s %12.1f %s%n", name, m.mean(), m.unit()));
        // Latency metrics also carry percentiles over every sample.
        RunReport.Percentiles p = r.latency().get("munmap_ns");
        System.out.printf("munmap  p50 %.1f ns, p99 %.1f ns, max %.1f ns%n", p.p50(), p.p99(), p.max());

        // Counters are keyed by the kernel's vmstat names; Counter holds the keys.
        for (Counter c : new Counter[] {Counter.NR_TLB_REMOTE_FLUSH, Counter.NR_TLB_REMOTE_FLUSH_RECEIVED,
                Counter.IPIS_SENT, Counter.PAGE_FAULTS, Counter.TABLES_FREED}) {
            System.out.printf("counter %-30s %8d%n", c.key, r.counters().get(c.key));
        }
        // A report never prints wall-clock time here: r.wallS() and r.stepsPerSecond() (the JSON's
        // host_timing) are the only fields that differ between two runs of the same scenario.
        System.out.println("hazards: " + r.hazards().size());
    }
}
