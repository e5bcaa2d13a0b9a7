package dev.pvtlb.run;

import dev.pvtlb.Guest;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.internal.workload.Metric;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/** Runs a scenario's repetitions, each on a freshly booted guest, and summarises them. */
public final class Runner {
    /** Bound on model steps per repetition: a runaway workload stops with a message. */
    public static final long MAX_STEPS = 2_000_000_000L;

    private Runner() {}

    /** Steps run between two progress callbacks. */
    public static final long PROGRESS_CHUNK = 100_000;

    /**
     * Told how far a run is, between chunks of {@link #PROGRESS_CHUNK} steps and after each
     * repetition; for a progress display only (running in chunks gives the same steps).
     */
    @FunctionalInterface
    public interface Progress {
        void update(int rep, int reps, long stepsThisRep, long simulatedNs);
    }

    public static RunReport run(Scenario s) {
        return run(s, (rep, reps, steps, ns) -> { });
    }

    /** Handed each repetition's guest after boot, before its workload is set up (to subscribe to it). */
    @FunctionalInterface
    public interface Watch {
        void booted(int rep, Guest guest);
    }

    public static RunReport run(Scenario s, Progress progress) {
        return run(s, progress, (rep, g) -> { });
    }

    /**
     * The primary's metrics, then each co-guest's under {@code vmK.} (K its VM number): with
     * {@code others=same} every VM runs the workload, as every VM of a published overcommit test
     * runs the benchmark and reports its own score, and the VMs need not fare alike.
     */
    static Map<String, Metric> measured(Map<String, Metric> primary, List<Scenario.CoGuest> coGuests) {
        if (coGuests.isEmpty()) {
            return primary;
        }
        Map<String, Metric> all = new LinkedHashMap<>(primary);
        for (int vm = 1; vm <= coGuests.size(); vm++) {
            for (var e : coGuests.get(vm - 1).metrics().get().entrySet()) {
                all.put("vm" + vm + "." + e.getKey(), e.getValue());
            }
        }
        return all;
    }

    public static RunReport run(Scenario s, Progress progress, Watch watch) {
        long wallStart = System.nanoTime();
        Map<String, List<Double>> values = new LinkedHashMap<>();
        Map<String, org.HdrHistogram.Histogram> distributions = new LinkedHashMap<>();
        Map<String, String> units = new LinkedHashMap<>();
        Map<String, Long> counters = new LinkedHashMap<>();
        Map<String, Long> cpuTime = new LinkedHashMap<>();
        Map<String, Long> costNs = new LinkedHashMap<>();
        long steps = 0;
        long simNs = 0;
        Map<String, String> knobs = Map.of();
        String profile = "";
        List<RunReport.RepHazard> hazards = new ArrayList<>();
        java.util.Set<String> keysRead = new java.util.TreeSet<>();
        for (int rep = 0; rep < s.reps(); rep++) {
            GuestConfig cfg = s.guestConfig(rep);
            List<Scenario.CoGuest> coGuests = List.of();
            try (Guest booted = Guest.boot(cfg)) {
                Kernel g = KernelBoot.of(booted);
                knobs = g.knobValues().values();
                profile = g.profile().name();
                watch.booted(rep, booted);
                Supplier<Map<String, Metric>> metrics = s.workload().setUp(g, s.params());
                coGuests = s.bootCoGuests(rep, g);
                for (long budget = MAX_STEPS; budget > 0; ) {
                    long before = g.engine().steps();
                    g.engine().run(Long.MAX_VALUE, Math.min(budget, PROGRESS_CHUNK));
                    long ran = g.engine().steps() - before;
                    budget -= ran;
                    progress.update(rep, s.reps(), g.engine().steps(), g.engine().now());
                    if (ran < PROGRESS_CHUNK || g.engine().isStopped()) {
                        break;
                    }
                }
                if (g.liveTasks() > 0 && !g.engine().runEnded()) {
                    throw new dev.pvtlb.model.ModelException("run stopped after " + MAX_STEPS + " steps with "
                            + g.liveTasks() + " tasks still running (lower ops)");
                }
                for (var e : measured(metrics.get(), coGuests).entrySet()) {
                    values.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue().value());
                    units.put(e.getKey(), e.getValue().unit());
                    if (e.getValue().distributionPs() != null) {
                        distributions.computeIfAbsent(e.getKey(), k -> new org.HdrHistogram.Histogram(3))
                                .add(e.getValue().distributionPs());
                    }
                }
                g.vmstat().asMap().forEach((k, v) -> counters.merge(k, v, Long::sum));
                g.cpuTime().totals().forEach((k, v) -> cpuTime.merge(k, v, Long::sum));
                g.ledger().totals().forEach((k, v) -> costNs.merge(k, v, Long::sum));
                for (Hazard h : g.hazards().hazards()) {
                    hazards.add(new RunReport.RepHazard(rep, h));
                }
                steps += g.engine().steps();
                simNs += g.engine().now();
                keysRead.addAll(g.profile().keysRead());
                for (Scenario.CoGuest co : coGuests) {
                    keysRead.addAll(KernelBoot.of(co.guest()).profile().keysRead());
                }
            } finally {
                coGuests.forEach(c -> c.guest().close());
            }
        }
        Map<String, RunReport.Percentiles> latency = new LinkedHashMap<>();
        distributions.forEach((k, h) -> latency.put(k, RunReport.Percentiles.of(h)));
        Map<String, RunReport.Summary> summaries = new LinkedHashMap<>();
        values.forEach((k, xs) -> summaries.put(k, RunReport.Summary.of(xs, units.get(k))));
        double wall = (System.nanoTime() - wallStart) / 1e9;
        return new RunReport(s.workload().name(), s.backend(), knobs, s.params().values(),
                profile, s.seed(), s.reps(), summaries, counters, cpuTime, hazards,
                steps, simNs / 1e9, wall, latency, costNs, s.fidelity().key(), keysRead);
    }
}
