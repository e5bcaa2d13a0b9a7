package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.Strategy;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.run.Scenario;
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

    @Option(names = "--trace", paramLabel = "FILE", description = "write a found hazard's trace here (for pvtlb replay)")
    Path trace;

    @Mixin
    TimelineOption timeline;

    /**
     * {@code s} as the explorer hunts in it unless told otherwise: a SAFE verdict counts only if the
     * hardware's speculative walks were allowed, and stores could become visible late as the
     * backend's CPU lets them.
     */
    static Scenario huntDefaults(Scenario s) {
        if (s.settings().stream().noneMatch(kv -> kv.startsWith("speculation="))) {
            s.set("speculation", "on");
        }
        if (s.settings().stream().noneMatch(kv -> kv.startsWith("memoryModel="))) {
            s.set("memoryModel", Explorer.defaultMemoryModel(s.backend()));
        }
        return s;
    }

    @Override
    public Integer call() throws IOException {
        ReportFile.check(trace, "--trace");
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
        Scenario s = huntDefaults(ScenarioArgs.build(scenario, backend, sets, seed, null));
        Strategy st;
        try {
            st = Explorer.strategy(strategy, seed, depth, bound);
        } catch (IllegalArgumentException e) {
            throw new ModelException(e.getMessage());
        }
        Explorer explorer = new Explorer(s);
        ExploreResult r = explorer.explore(st, budget, seconds);
        PrintWriter out = spec.commandLine().getOut();
        out.printf("scenario %s  backend %s  knobs %s  strategy %s  seed %d%n", scenario, backend,
                String.join(" ", sets), r.strategy(), seed);
        out.printf("schedules: %d in %.2f s (%.0f schedules/s)%s%n", r.schedules(), r.seconds(), r.schedulesPerSecond(),
                r.exhausted() ? ", every schedule within the bound" : "");
        if (r.safe()) {
            out.println("verdict: SAFE (no hazard in " + r.schedules() + " schedules)");
            if (timeline.wanted()) {
                out.println("no hazard, so no schedule to draw: --timeline not written");
            }
            return 0;
        }
        out.println("verdict: HAZARD " + r.hazard().kind() + " found in schedule " + r.foundAt()
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
