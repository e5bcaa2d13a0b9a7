package dev.pvtlb.cli;

import dev.pvtlb.config.Fidelity;
import dev.pvtlb.Guest;
import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.RandomStrategy;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.ScenarioArgs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb bench}: a fixed suite measuring the emulator itself on this host: model steps
 * per second, real-time factor (simulated seconds per wall second) and, for the explorer,
 * schedules per second. Each entry runs {@code --repeat} times (the median run is reported,
 * with the spread) after one untimed warm-up run of a smaller size
 * (so the JIT has compiled the hot paths; an explorer entry warms up on half its budget of
 * other schedules, since a schedule is tens of microseconds and C2 needs a second or two);
 * the suite is sized to finish within two minutes at one level. A run entry runs at both fidelity
 * levels by default ({@code --fidelity both}): its warm-up once, then {@code --repeat} timed runs
 * at exact and as many at fast, the fast row with {@code fast_vs_exact}, the ratio of the
 * real-time factors.
 *
 * <p>The {@code scale-N} entries run one flush-storm shape (16 threads per process, each
 * mapping, touching and unmapping 16 pages; 16384 munmaps in all) at N vCPUs, so their steps
 * per second show how the cost of a step grows with the CPU count. For run entries, {@code heap_mb} is the live Java
 * heap of the booted guest at the end of its warm-up run (after a full GC), and
 * {@code guest_memory_mb} the off-heap segment (touched pages only count towards RSS).
 * {@code steps_per_s} is over the whole run, boot included; {@code boot_s} is one boot of the
 * same guest on its own, and {@code run_steps_per_s} the steps over the run's wall time less
 * that boot (the figure of the run alone, whatever its length).
 *
 * <p>{@code --baseline F} compares with the results of an earlier {@code bench --json F}
 * ({@link BenchBaseline}; {@code a44539b} names the built-in results of that commit on the
 * development machine): each entry present in both gets the ratio of its current real-time factor
 * (run entries) or schedules per second (explorer entries) to the baseline's, above 1 when faster,
 * printed as a last column and written as {@code vs_baseline}. The entries run one at a time:
 * runs at once would share the cores and slow each other down. An explorer entry's random search
 * runs as {@code pvtlb explore} runs it, one schedule per core at once ({@code explore_workers});
 * a44539b's baseline ran one at a time.
 */
@Command(name = "bench", description = {"Measure the emulator's own speed on a fixed suite, one entry at a time.",
    "With --baseline, each entry's speed relative to an earlier bench --json: current real-time factor (run entries) "
            + "or schedules/s (explorer entries) over the baseline's."})
final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--json", paramLabel = "FILE", description = "write the results as JSON")
    Path json;

    @Option(names = "--only", paramLabel = "NAME", description = "run only the entries whose name contains NAME")
    String only;

    @Option(names = "--repeat", paramLabel = "R", description = "timed runs per entry; the median is reported (default: 3)")
    int repeat = 3;

    @Option(names = "--fidelity", paramLabel = "LEVEL", description = "exact, fast or both (default both): the level of the run "
            + "entries; with both, each runs at exact then fast and the fast row gives the ratio of the real-time factors, "
            + "fast/exact (explorer entries are exact, as the explorer is)")
    String fidelity = "both";

    @Option(names = "--baseline", paramLabel = "F", description = "compare with an earlier 'bench --json F': the ratio "
            + "of each entry's real-time factor (run entries) or schedules/s (explorer entries) to F's, beside the "
            + "figures and as vs_baseline in --json (above 1: faster now); 'a44539b' names the built-in results of "
            + "commit a44539b, anything else a file")
    String baseline;

    /** One entry of the suite. */
    private sealed interface Entry permits RunEntry, ExploreEntry {
        String name();
    }

    /** A run entry: a scenario and its settings. */
    private record RunEntry(String name, String scenario, String backend, List<String> sets) implements Entry { }

    /** An explorer entry: a scenario variant explored for a fixed budget of schedules. */
    private record ExploreEntry(String name, String scenario, String backend, List<String> sets, int budget) implements Entry { }

    static final List<Entry> SUITE = List.of(
            new RunEntry("munmap-storm", "munmap-storm", "native", List.of("vcpus=16", "ops=400")),
            // The workload's shape before its defaults became sysbench's own (128 DAX files, 16 KiB
            // writes, timed): one file of 1024 pages, one-page writes, page-cache faults, as the
            // baseline a44539b measured it.
            new RunEntry("sysbench-mmap-rndwr", "sysbench-mmap-rndwr", "native",
                    List.of("vcpus=56", "ops=10000", "pages=1024", "files=1", "block_pages=1", "dax=false")),
            new RunEntry("ebizzy-3vm", "ebizzy", "kvm", List.of("vcpus=64", "pcpus=64", "vms=3", "ops=64")),
            scale(16), scale(64), scale(256),
            new RunEntry("flush-storm-1024", "munmap-storm", "native", flushStorm(1024)),
            new RunEntry("tlb-flush2-72", "tlb-flush2", "native", List.of("topology=1x36x2", "threads=72")),
            new RunEntry("netperf-rr", "netperf-rr", "native", List.of()),
            new ExploreEntry("gup-fast-vs-free", "gup-fast-vs-free", "native", List.of("tableFree=immediate"), 40_000),
            // The 20 us host slice the catalogue entry set until it took the profile's 3 ms: the
            // same work per schedule as the suite measured at de71212.
            new ExploreEntry("kvm-preempted-flush", "kvm-preempted-flush", "kvm",
                    List.of("kvm.hostClearPreempted=xchg", "profile.host.slice.ns=20000"), 8_000));

    /**
     * The flush storm at {@code vcpus} vCPUs: 16 threads per process, one thread per vCPU, and
     * 16384 munmaps in all (fewer per thread as there are more threads), so every size does
     * about the same work.
     */
    private static List<String> flushStorm(int vcpus) {
        return List.of("vcpus=" + vcpus, "threads=" + vcpus, "processes=" + vcpus / 16, "ops=" + 16_384 / vcpus, "workset=16",
                "accesses=200", "pages=16", "memory=2048");
    }

    private static RunEntry scale(int vcpus) {
        return new RunEntry("scale-" + vcpus, "munmap-storm", "native", flushStorm(vcpus));
    }

    @Override
    public Integer call() throws IOException {
        ReportFile.check(json, "--json");
        PrintWriter out = spec.commandLine().getOut();
        if (repeat < 1 || repeat > 100) {
            throw new IllegalArgumentException("--repeat must be between 1 and 100, got " + repeat);
        }
        if (only != null && SUITE.stream().noneMatch(e -> e.name().contains(only))) {
            throw new IllegalArgumentException("no bench entry matches '" + only + "' (entries: "
                    + String.join(", ", SUITE.stream().map(Entry::name).toList()) + ")");
        }
        BenchBaseline base = baseline == null ? null : BenchBaseline.load(baseline);
        List<Map<String, Object>> entries = new ArrayList<>();
        List<Fidelity> levels = switch (fidelity) {
            case "both" -> List.of(Fidelity.EXACT, Fidelity.FAST);
            default -> List.of(Fidelity.parse(fidelity));
        };
        out.printf("%-22s %-6s %14s %16s %10s %16s %12s %10s %10s%s%n", "entry", "level", "steps/s", "w/o boot", "rtf", "schedules/s",
                "peak rss MB", "heap MB", "fast/exact", base == null ? "" : String.format("%12s", "vs baseline"));
        for (Entry e : SUITE) {
            String name = e.name();
            if (only != null && !name.contains(only)) {
                continue;
            }
            if (e instanceof RunEntry r) {
                Double exactRtf = null;
                // One warm-up per entry, at the first level: the levels run the same code paths.
                long[] heap = {0};
                Scenario warm = ScenarioArgs.build(r.scenario(), r.backend(), warmUp(r.sets()), 1L, null).defaultFidelity(levels.getFirst());
                Runner.run(warm, (i, n, steps, ns) -> heap[0] = liveHeapMb());
                for (Fidelity level : levels) {
                    Map<String, Object> row = new LinkedHashMap<>();
                    row.put("name", name);
                    row.put("fidelity", level.key());
                    Scenario timed = ScenarioArgs.build(r.scenario(), r.backend(), r.sets(), 1L, null).defaultFidelity(level);
                    List<Map<String, Object>> runs = new ArrayList<>();
                    for (int k = 0; k < repeat; k++) {
                        runs.add(timedRun(timed));
                    }
                    row.putAll(median(runs, "steps_per_s"));
                    row.put("heap_mb", heap[0]);
                    row.put("guest_memory_mb", warm.guestConfig(0).memoryBytes() >> 20);
                    double rtf = (double) row.get("rtf");
                    if (level == Fidelity.EXACT) {
                        exactRtf = rtf;
                    } else if (exactRtf != null && exactRtf > 0) {
                        row.put("fast_vs_exact", rtf / exactRtf);
                    }
                    finish(row, e, base, out, entries);
                }
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("name", name);
            row.put("fidelity", Fidelity.EXACT.key());
            if (e instanceof ExploreEntry x) {
                // As pvtlb explore runs a random search: one schedule per core at once.
                int workers = Runtime.getRuntime().availableProcessors();
                new Explorer(ScenarioArgs.build(x.scenario(), x.backend(), x.sets(), 1L, null)).parallel(workers)
                        .explore(new RandomStrategy(1), x.budget() / 2, 60);
                row.put("explore_workers", workers);
                List<Map<String, Object>> runs = new ArrayList<>();
                for (int k = 0; k < repeat; k++) {
                    // The same schedules every time: only the host's speed varies.
                    ExploreResult res = new Explorer(ScenarioArgs.build(x.scenario(), x.backend(), x.sets(), 1L, null))
                            .parallel(workers).explore(new RandomStrategy(2), x.budget(), 60);
                    Map<String, Object> run = new LinkedHashMap<>();
                    run.put("steps_per_s", 0.0);
                    run.put("rtf", 0.0);
                    run.put("schedules_per_s", res.schedulesPerSecond());
                    run.put("schedules", res.schedules());
                    run.put("wall_s", res.seconds());
                    runs.add(run);
                }
                row.putAll(median(runs, "schedules_per_s"));
            }
            finish(row, e, base, out, entries);
        }
        if (base != null) {
            out.println("vs baseline: current rtf (run entries) or schedules/s (explorer entries) over " + baseline
                    + "'s; above 1 is faster, '-' where the baseline has no such entry");
        }
        if (json != null) {
            Map<String, Object> root = new LinkedHashMap<>();
            if (base != null) {
                root.put("baseline", baseline);
            }
            root.put("entries", entries);
            ReportFile.write(json, "--json", Json.write(root));
        }
        return 0;
    }

    /** Completes {@code row} (peak RSS, the baseline's ratio), prints it and adds it to {@code entries}. */
    private static void finish(Map<String, Object> row, Entry e, BenchBaseline base, PrintWriter out, List<Map<String, Object>> entries) {
        row.put("peak_rss_mb", peakRssMb());
        Double ratio = base == null ? null : vsBaseline(base, e, row);
        if (ratio != null) {
            row.put("vs_baseline", ratio);
        }
        entries.add(row);
        Object fe = row.get("fast_vs_exact");
        out.printf("%-22s %-6s %14.0f %16.0f %10.4f %16.0f %12d %10s %10s%s%n", e.name(), row.get("fidelity"), (double) row.get("steps_per_s"),
                (double) row.getOrDefault("run_steps_per_s", 0.0), (double) row.get("rtf"),
                (double) row.get("schedules_per_s"), (long) row.get("peak_rss_mb"),
                row.containsKey("heap_mb") ? row.get("heap_mb").toString() : "-",
                fe == null ? "-" : String.format(java.util.Locale.ROOT, "%.2fx", (double) fe),
                base == null ? "" : ratio == null ? String.format("%12s", "-") : String.format("%11.3fx", ratio));
        out.flush();
    }

    /**
     * The ratio of {@code row}'s figure to the baseline's: the real-time factor for a run entry,
     * schedules per second for an explorer entry; null when the baseline has none to compare.
     */
    private static Double vsBaseline(BenchBaseline base, Entry e, Map<String, Object> row) {
        boolean explorer = e instanceof ExploreEntry;
        return base.ratio(e.name(), "fast".equals(row.get("fidelity")), explorer, (double) row.get(explorer ? "schedules_per_s" : "rtf"));
    }

    /** One timed run of a run entry, after a separate boot of its guest to time the boot alone. */
    private static Map<String, Object> timedRun(Scenario timed) {
        long bootStart = System.nanoTime();
        try (Guest g = Guest.boot(timed.guestConfig(0))) {
            g.cpus(); // booted: memory, CPUs and their TLBs, pv_ops
        }
        double bootS = (System.nanoTime() - bootStart) / 1e9;
        RunReport rep = Runner.run(timed);
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("steps_per_s", rep.stepsPerSecond());
        run.put("boot_s", bootS);
        run.put("run_steps_per_s", rep.wallS() > bootS ? rep.steps() / (rep.wallS() - bootS) : 0.0);
        run.put("rtf", rep.wallS() > 0 ? rep.simulatedS() / rep.wallS() : 0.0);
        run.put("schedules_per_s", 0.0);
        run.put("steps", rep.steps());
        run.put("simulated_s", rep.simulatedS());
        run.put("wall_s", rep.wallS());
        return run;
    }

    /**
     * The run with the median {@code key} (the lower middle one of an even count), and the
     * spread of {@code key} over all runs: how much the host's speed moved.
     */
    static Map<String, Object> median(List<Map<String, Object>> runs, String key) {
        List<Map<String, Object>> sorted = new ArrayList<>(runs);
        sorted.sort(java.util.Comparator.comparingDouble(m -> (double) m.get(key)));
        Map<String, Object> m = new LinkedHashMap<>(sorted.get((sorted.size() - 1) / 2));
        m.put("repeats", runs.size());
        m.put(key + "_min", sorted.getFirst().get(key));
        m.put(key + "_max", sorted.getLast().get(key));
        return m;
    }

    /**
     * The warm-up run: the same entry with half its operations (at least 1), so the JIT has
     * compiled this entry's own paths whatever ran before it (--only runs one entry cold).
     */
    private static List<String> warmUp(List<String> sets) {
        List<String> w = new ArrayList<>();
        for (String s : sets) {
            w.add(s.startsWith("ops=") ? "ops=" + Math.max(1, Integer.parseInt(s.substring(4)) / 2) : s);
        }
        if (w.stream().noneMatch(s -> s.startsWith("ops="))) {
            w.add("ops=2");
        }
        return w;
    }

    /**
     * The live heap after a full collection, in MiB. Called from the warm-up run's progress
     * callback, where the guest is still booted, so it is what one guest of this size holds.
     */
    static long liveHeapMb() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) >> 20;
    }

    /** VmHWM of /proc/self/status (the process's peak resident set), or -1 where not readable. */
    static long peakRssMb() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
