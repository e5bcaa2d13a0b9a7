package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.Strategy;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.ScenarioArgs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb explore SCENARIO}: hunt for hazards over schedules. Exit 0 when the budget ran
 * out with no hazard, 1 when one was found (its shrunk trace printed, and written with --trace).
 */
@Command(name = "explore", description = "Explore schedules of a scenario for stale translations and walks after free.")
final class ExploreCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "a built-in scenario (see 'pvtlb scenarios')")
    String scenario;

    @Mixin
    BackendJarOption backendJar;

    @Option(names = "--backend", paramLabel = "B", description = "pv_ops backend (default: native)")
    String backend = "native";

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "override a machine key, workload parameter or knob")
    List<String> sets = new ArrayList<>();

    @Option(names = "--strategy", paramLabel = "S", description = "random (default), pct or exhaustive")
    String strategy = "random";

    @Option(names = "--budget", paramLabel = "N", description = "at most N schedules (default: 10000)")
    long budget = 10_000;

    @Option(names = "--seconds", paramLabel = "S", description = "at most S seconds of exploring (default: 600)")
    double seconds = 600;

    @Option(names = "--depth", paramLabel = "D", description = "pct: bug depth, d-1 change points (default: 3)")
    int depth = 3;

    @Option(names = "--bound", paramLabel = "B", description = "exhaustive: most non-default choices (default: 2)")
    int bound = 2;

    @Option(names = "--seed", paramLabel = "N", description = "scenario and strategy seed (default: 1)")
    long seed = 1;

    @Option(names = "--parallel", paramLabel = "N", description = "random: schedules run at once, each on a guest of its own, "
            + "with the result of one at a time (default: the number of cores); pct and exhaustive learn from each schedule "
            + "and run one at a time")
    Integer parallel;

    @Option(names = "--trace", paramLabel = "FILE", description = "write a found hazard's trace here (for pvtlb replay)")
    Path trace;

    @Option(names = "--sizes", split = ",", paramLabel = "N,N..", description = "hunt at each of these machine sizes in turn "
            + "(the scenario's cpus parameter, else vcpus), the budget and seconds for each; exit 1 if any size finds a hazard")
    List<Integer> sizes = new ArrayList<>();

    @Option(names = "--mode", paramLabel = "M", description = "windows: branch short windows at each flush from runs "
            + "from boot (a copy of the model each); runs: each schedule a whole run from boot (default: windows for the "
            + "benchmark workloads, runs for catalogue entries, the torture and the exhaustive strategy)")
    String mode;

    @Option(names = "--window", paramLabel = "NS", description = "windows: virtual time each window runs from its flush, "
            + "for the flush, its IPIs and acknowledgements and what races with them (default: 20000)")
    long windowNs = 20_000;

    @Mixin
    TimelineOption timeline;

    /** Whether to explore {@code s} in windows: --mode, else what its workload asks for. */
    private boolean windows(Scenario s) {
        if (mode == null) {
            return s.exploredInWindows() && !"exhaustive".equals(strategy);
        }
        return switch (mode) {
            case "windows" -> {
                if ("exhaustive".equals(strategy)) {
                    throw new ModelException("--mode windows takes --strategy random or pct: an exhaustive search plans whole runs");
                }
                yield true;
            }
            case "runs" -> false;
            default -> throw new ModelException("--mode must be windows or runs, got '" + mode + "'");
        };
    }

    /** One hunt in {@code s}: in windows when asked and the model can be branched, else in whole runs. */
    private ExploreResult hunt(Explorer explorer, Scenario s, PrintWriter out) {
        if (windows(s)) {
            try {
                return explorer.exploreWindows(strategy(), budget, seconds, windowNs);
            } catch (UnsupportedOperationException e) {
                out.println("windows: this model cannot be branched (" + e.getMessage() + "): whole runs instead");
            }
        }
        return explorer.explore(strategy(), budget, seconds);
    }

    /** Where a hazard was found: schedule N, window N, or a run from boot itself after N windows. */
    private static String where(ExploreResult r) {
        if (!r.windows()) {
            return "schedule " + r.foundAt();
        }
        return r.foundByBaseRun() ? "a run from boot itself, after " + r.foundAt() + " window(s)" : "window " + r.foundAt();
    }

    private String rate(ExploreResult r) {
        return r.windows()
                ? String.format("windows: %d in %.2f s (%.0f windows/s), branched at the flushes of %d run(s) from boot, %d ns each",
                        r.schedules(), r.seconds(), r.schedulesPerSecond(), r.baseRuns(), windowNs)
                : String.format("schedules: %d in %.2f s (%.0f schedules/s)", r.schedules(), r.seconds(), r.schedulesPerSecond());
    }

    /** Schedules at once: --parallel, else one per core. */
    private int workers() {
        return parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
    }

    @Override
    public Integer call() throws IOException {
        ReportFile.check(trace, "--trace");
        backendJar.register();
        timeline.check();
        if (budget < 1 || !(seconds > 0) || Double.isInfinite(seconds)) {
            throw new ModelException("--budget must be >= 1 and --seconds a number > 0");
        }
        // Checked whatever the strategy, so a typo is not silently ignored by one that does not use it.
        if (depth < 1 || depth > 64) {
            throw new ModelException("--depth must be between 1 and 64, got " + depth);
        }
        if (bound < 0 || bound > 64) {
            throw new ModelException("--bound must be between 0 and 64, got " + bound);
        }
        if (windowNs < 1 || windowNs > 1_000_000_000L) {
            throw new ModelException("--window must be between 1 and 1000000000 ns, got " + windowNs);
        }
        if (workers() < 1 || workers() > 1024) {
            throw new ModelException("--parallel must be between 1 and 1024, got " + workers());
        }
        if (!sizes.isEmpty()) {
            return huntOverSizes();
        }
        Scenario s = Explorer.huntDefaults(ScenarioArgs.build(scenario, backend, sets, seed, null));
        Explorer explorer = new Explorer(s).parallel(workers());
        PrintWriter out = spec.commandLine().getOut();
        windows(s); // a bad --mode is refused before the hunt
        out.printf("scenario %s  backend %s  knobs %s  strategy %s  seed %d%n", scenario, backend,
                String.join(" ", sets), strategy, seed);
        ExploreResult r = hunt(explorer, s, out);
        out.printf("%s%s%n", rate(r), r.exhausted() ? ", every schedule within the bound" : "");
        if (r.safe()) {
            out.println("verdict: SAFE (no hazard in " + r.schedules() + (r.windows() ? " windows and " + r.baseRuns()
                    + " run(s) from boot)" : " schedules)"));
            noTimeline(out);
            return 0;
        }
        return reportHazard(out, explorer, s, r);
    }

    private Strategy strategy() {
        try {
            return Explorer.strategy(strategy, seed, depth, bound);
        } catch (IllegalArgumentException e) {
            throw new ModelException(e.getMessage());
        }
    }

    private void noTimeline(PrintWriter out) {
        if (timeline.wanted()) {
            out.println("no hazard, so no schedule to draw: --timeline not written");
        }
    }

    /**
     * --sizes: the same hunt at each machine size, one line each, then the first hazard in full.
     * A size the scenario refuses (below a catalogue entry's roles) is listed as not run.
     */
    private int huntOverSizes() throws IOException {
        for (String kv : sets) {
            if (kv.startsWith("cpus=") || kv.startsWith("vcpus=") || kv.startsWith("topology=")) {
                throw new ModelException("--sizes sets the machine size itself: drop --set " + kv);
            }
        }
        for (int n : sizes) {
            if (n < 1 || n > dev.pvtlb.smp.Topology.MAX_CPUS) {
                throw new ModelException("--sizes: each size must be between 1 and " + dev.pvtlb.smp.Topology.MAX_CPUS + ", got " + n);
            }
        }
        String key = ScenarioArgs.build(scenario, backend, sets, seed, null).takes("cpus") ? "cpus" : "vcpus";
        PrintWriter out = spec.commandLine().getOut();
        out.printf("scenario %s  backend %s  knobs %s  strategy %s  seed %d  sizes %s=%s%n", scenario, backend,
                String.join(" ", sets), strategy, seed, key, sizes.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(",")));
        ExploreResult first = null;
        Explorer firstExplorer = null;
        Scenario firstScenario = null;
        int ran = 0;
        String refused = null;
        for (int n : sizes) {
            List<String> sized = new ArrayList<>(sets);
            sized.add(key + "=" + n);
            Scenario s;
            try {
                s = ScenarioArgs.forHunt(scenario, backend, sized, seed);
            } catch (ModelException e) {
                refused = e.getMessage();
                out.printf("%s=%-4d not run: %s%n", key, n, refused);
                continue;
            }
            ran++;
            Explorer explorer = new Explorer(s).parallel(workers());
            ExploreResult r = hunt(explorer, s, out);
            if (r.safe()) {
                out.printf("%s=%-4d SAFE    %d %s in %.2f s (%.0f %s/s)%n", key, n, r.schedules(), r.windows() ? "windows" : "schedules",
                        r.seconds(), r.schedulesPerSecond(), r.windows() ? "windows" : "schedules");
            } else {
                out.printf("%s=%-4d HAZARD  %s in %s (%.2f s)%n", key, n, r.hazard().kind(), where(r), r.seconds());
                if (first == null) {
                    first = r;
                    firstExplorer = explorer;
                    firstScenario = s;
                }
            }
        }
        if (ran == 0) {
            throw new ModelException("--sizes: no size could run: " + refused);
        }
        if (first == null) {
            out.println("verdict: SAFE at every size run");
            noTimeline(out);
            return 0;
        }
        out.println();
        out.println("first hazard, at " + firstScenario.settings().stream().filter(kv -> kv.startsWith(key + "=")).findFirst().orElse(""));
        return reportHazard(out, firstExplorer, firstScenario, first);
    }

    /** A found hazard: its verdict line, the hazard, the trace, and --trace / --timeline if asked for. Exit 1. */
    private int reportHazard(PrintWriter out, Explorer explorer, Scenario s, ExploreResult r) throws IOException {
        out.println("verdict: HAZARD " + r.hazard().kind() + " found in " + where(r)
                + "; shrunk to " + r.nonDefaultChoices() + " non-default of " + r.shrunk().size() + " choices, "
                + r.shrunkSteps() + " steps");
        out.println(r.hazard());
        out.println();
        out.println("trace (last steps before the violation):");
        r.trace().forEach(l -> out.println("  " + l));
        if (trace != null) {
            ReportFile.write(trace, "--trace", r.toTraceFile().write(r.trace()));
            out.println();
            out.println("trace written to " + trace + " (pvtlb replay " + trace + ")");
        }
        if (timeline.wanted()) {
            // The shrunk schedule once more, recorded: the timeline shows what the trace tells.
            explorer.replay(r.shrunk(), timeline::watch);
            timeline.write("explore", s, "the shrunk schedule of the hazard");
            out.println();
            out.println("timeline written to " + timeline.file + " (open it in ui.perfetto.dev or chrome://tracing)");
        }
        return 1;
    }
}
