package dev.pvtlb.run;

import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.stats.CostPart;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result of a run: everything but {@code hostTiming} is a pure function of the scenario,
 * seed and {@code fidelity} ({@code exact} or {@code fast}, the timing detail it ran at). {@link #toMap()} is the report as data; the pvtlb-report module's
 * {@code dev.pvtlb.report.RunReportJson} writes it as the documented, stable JSON report.
 */
public record RunReport(String scenario, String backend, Map<String, String> knobs, Map<String, String> params,
                        String profile, long seed, int reps, Map<String, Summary> metrics,
                        Map<String, Long> counters, Map<String, Long> cpuTimeNs, List<RepHazard> hazards,
                        long steps, double simulatedS, double wallS, Map<String, Percentiles> latency,
                        Map<String, Long> costNs, String fidelity, java.util.Set<String> profileKeysRead) {

    /**
     * {@code profileKeysRead}: the profile figures the run read, the primary guest's and its
     * co-guests' ({@code Profile.keysRead()}): a figure not among them cannot change a byte of it.
     * Not part of the JSON report.
     */
    public RunReport {
        profileKeysRead = java.util.Set.copyOf(profileKeysRead);
    }

    /** A report that does not say which profile figures the run read (an empty set). */
    public RunReport(String scenario, String backend, Map<String, String> knobs, Map<String, String> params,
                     String profile, long seed, int reps, Map<String, Summary> metrics,
                     Map<String, Long> counters, Map<String, Long> cpuTimeNs, List<RepHazard> hazards,
                     long steps, double simulatedS, double wallS, Map<String, Percentiles> latency,
                     Map<String, Long> costNs, String fidelity) {
        this(scenario, backend, knobs, params, profile, seed, reps, metrics, counters, cpuTimeNs, hazards, steps, simulatedS, wallS,
                latency, costNs, fidelity, java.util.Set.of());
    }

    /**
     * One row of the cost breakdown: a part's virtual time over all CPUs and repetitions, and its
     * mean per event ({@code per}: a counter's name; NaN when that counter is zero).
     */
    public record CostRow(String part, String description, long totalNs, String per, double meanNs) {
        public Map<String, Object> toMap() {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("part", part);
            e.put("description", description);
            e.put("total_ns", totalNs);
            e.put("per", per);
            e.put("mean_ns", meanNs);
            return e;
        }
    }

    /**
     * Where remote flushes spent their time: the initiator's setup, send, wait for the slowest
     * target and own flush (each per remote flush), the targets' interrupt, csd and flush work
     * (per IPI or flush received), and across all CPUs the shared-line transfers (part of the
     * rows above) and TLB refill walks (per TLB miss). A backend whose flush bypasses
     * smp_call_function_many (a hypercall, a broadcast TLBI) shows its own cost in cpu time instead.
     */
    public List<CostRow> costBreakdown() {
        List<CostRow> rows = new ArrayList<>();
        String flushes = Counter.NR_TLB_REMOTE_FLUSH.key;
        String received = Counter.NR_TLB_REMOTE_FLUSH_RECEIVED.key;
        for (CostPart p : CostPart.values()) {
            String per = switch (p) {
                case FLUSH_SETUP, FLUSH_SEND, FLUSH_LOCAL, LINE_TRANSFERS, LINES_MMAP_LOCK, LINES_MM_CPUMASK, LINES_TLB_GEN,
                     LINES_PER_CPU, LINES_SPINLOCKS, LINES_LOCKED_DATA, WAIT_LAST_RUNNING, WAIT_LAST_IRQS_OFF,
                     WAIT_LAST_DESCHEDULED, WAIT_LAST_HALTED, WAIT_LAST_HALTED_IRQS_OFF -> flushes;
                case IPI_DELIVERY, TARGET_IRQ -> Counter.IPIS_RECEIVED.key;
                case TARGET_CSD, TARGET_FLUSH -> received;
                case TLB_REFILLS -> Counter.TLB_MISSES.key;
            };
            rows.add(row(p.key, p.description, costNs.getOrDefault(p.key, 0L), per));
            if (p == CostPart.FLUSH_SEND) {
                String wait = TimeCategory.IPI_WAIT.key;
                rows.add(row(wait, "initiator: waiting for the slowest target (csd_lock_wait)", cpuTimeNs.getOrDefault(wait, 0L), flushes));
            }
        }
        return rows;
    }

    private CostRow row(String part, String description, long total, String per) {
        long n = counters.getOrDefault(per, 0L);
        return new CostRow(part, description, total, per, n == 0 ? Double.NaN : (double) total / n);
    }

    /** A hazard found in repetition {@code rep}. */
    public record RepHazard(int rep, Hazard hazard) {
        /** As the JSON report writes it: kind, rep, time_ns, cpu, detail. */
        public Map<String, Object> toMap() {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("kind", hazard.kind().name());
            e.put("rep", rep);
            e.put("time_ns", hazard.timeNs());
            e.put("cpu", hazard.cpu());
            e.put("detail", hazard.detail());
            return e;
        }
    }

    /** p50, p99 and max of a latency metric in ns, over every sample of every repetition (HdrHistogram). */
    public record Percentiles(double p50, double p99, double max) {
        /** Package-private: the histogram type is HdrHistogram's, which the public API does not name. */
        static Percentiles of(org.HdrHistogram.Histogram ps) {
            return new Percentiles(ps.getValueAtPercentile(50) / 1000.0, ps.getValueAtPercentile(99) / 1000.0,
                    ps.getMaxValue() / 1000.0);
        }
    }

    /** Mean and sample standard deviation of one metric over repetitions. */
    public record Summary(double mean, double stdev, String unit) {
        static Summary of(List<Double> xs, String unit) {
            double m = xs.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            double ss = 0;
            for (double x : xs) {
                ss += (x - m) * (x - m);
            }
            double sd = xs.size() > 1 ? Math.sqrt(ss / (xs.size() - 1)) : 0;
            return new Summary(m, sd, unit);
        }
    }

    public double stepsPerSecond() {
        return wallS > 0 ? steps / wallS : 0;
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", scenario);
        m.put("backend", backend);
        m.put("knobs", knobs);
        m.put("params", params);
        m.put("profile", profile);
        m.put("seed", seed);
        m.put("reps", reps);
        m.put("fidelity", fidelity);
        Map<String, Object> ms = new LinkedHashMap<>();
        metrics.forEach((k, s) -> {
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("mean", s.mean());
            e.put("stdev", s.stdev());
            e.put("unit", s.unit());
            Percentiles p = latency.get(k);
            if (p != null) {
                e.put("p50", p.p50());
                e.put("p99", p.p99());
                e.put("max", p.max());
            }
            ms.put(k, e);
        });
        m.put("metrics", ms);
        m.put("counters", counters);
        m.put("cpu_time_ns", cpuTimeNs);
        m.put("cost_breakdown", costBreakdown().stream().map(CostRow::toMap).toList());
        m.put("hazards", hazards.stream().map(RepHazard::toMap).toList());
        Map<String, Object> sim = new LinkedHashMap<>();
        sim.put("steps", steps);
        sim.put("simulated_s", simulatedS);
        m.put("sim", sim);
        Map<String, Object> host = new LinkedHashMap<>();
        host.put("wall_s", wallS);
        host.put("steps_per_s", stepsPerSecond());
        m.put("host_timing", host);
        return m;
    }
}
