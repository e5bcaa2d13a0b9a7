package dev.pvtlb.cli;

import dev.pvtlb.config.Fidelity;
import dev.pvtlb.report.Figures;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.report.RunReportJson;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.ScenarioArgs;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code pvtlb run SCENARIO}: boot, run, print the table, optionally write JSON. */
@Command(name = "run", description = "Run a scenario and print its metrics and counters.")
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    ScenarioSelection selection;

    @Option(names = "--seed", paramLabel = "N", description = "seed (default: the scenario's, else 1)")
    Long seed;

    @Option(names = "--reps", paramLabel = "R", description = "repetitions, each with seed+rep (default: the scenario's, else 1)")
    Integer reps;

    @Option(names = "--json", paramLabel = "FILE", description = "write the JSON report here")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "write the metrics and counters as CSV")
    Path csv;

    @Option(names = "--html", paramLabel = "FILE", description = "write a self-contained HTML page with SVG charts")
    Path html;

    @Option(names = "--quiet", description = "no progress bar on stderr")
    boolean quiet;

    @Mixin
    BackendJarOption backendJar;

    @Mixin
    TimelineOption timeline;

    @Override
    public Integer call() throws IOException {
        ReportFile.check(json, "--json");
        ReportFile.check(csv, "--csv");
        ReportFile.check(html, "--html");
        timeline.check();
        backendJar.register();
        Scenario s = ScenarioArgs.build(selection.scenario, selection.backend, selection.sets, seed, reps).defaultFidelity(Fidelity.FAST);
        // The header is known before the run: print it at once, so a long run shows what it is.
        PrintWriter out = spec.commandLine().getOut();
        printHeader(s.name(), s.backend(), s.seed(), s.reps(), s.guestConfig(0).profile().name(), s.fidelity().key(), out);
        out.flush();
        ProgressBar bar = new ProgressBar(spec.commandLine().getErr(), quiet);
        RunReport r = Runner.run(s, (rep, n, steps, ns) -> bar.update(rep, n, "rep " + (rep + 1) + "/" + n + ", "
                + steps / 1000 + "k steps, " + Figures.num(ns / 1e6) + " ms simulated"), (rep, g) -> {
                    if (rep == 0) {
                        timeline.watch(g);
                    }
                });
        bar.done();
        printBody(r, out);
        if (json != null) {
            ReportFile.write(json, "--json", RunReportJson.toJson(r));
        }
        if (csv != null || html != null) {
            Comparison c = new Comparison(r.scenario(), null, List.of(""), List.of(r.backend()), new RunReport[][] {{r}});
            CompareCommand.write(c, null, csv, html, "pvtlb run " + selection.scenario);
        }
        timeline.write("run", s, "repetition 0");
        return r.hazards().isEmpty() ? 0 : 1;
    }

    static void printHeader(String scenario, String backend, long seed, int reps, String profile, String fidelity, PrintWriter out) {
        out.printf("scenario %s  backend %s  seed %d  reps %d  profile %s  fidelity %s%n", scenario, backend, seed, reps, profile, fidelity);
    }

    static void printBody(RunReport r, PrintWriter out) {
        out.printf("knobs    %s%n", r.knobs());
        out.println();
        out.printf("%-32s %14s %12s%n", "metric", "mean", "(stdev)");
        r.metrics().forEach((k, m) -> out.printf("%-32s %14s %12s %s%n", k, Figures.num(m.mean()),
                "(" + Figures.num(m.stdev()) + ")", m.unit()));
        out.println();
        out.printf("%-32s %14s%n", "counter", "value");
        r.counters().forEach((k, v) -> out.printf("%-32s %14d%n", k, v));
        out.println();
        out.printf("%-32s %14s%n", "cpu time", "ns");
        r.cpuTimeNs().forEach((k, v) -> out.printf("%-32s %14d%n", k, v));
        out.println();
        out.printf("%-32s %14s %12s  %s%n", "cost breakdown", "ns", "mean ns", "per / what");
        for (RunReport.CostRow c : r.costBreakdown()) {
            out.printf("%-32s %14d %12s  per %s: %s%n", c.part(), c.totalNs(), Double.isNaN(c.meanNs()) ? "-" : Figures.num(c.meanNs()),
                    c.per(), c.description());
        }
        out.println();
        if (r.hazards().isEmpty()) {
            out.println("hazards: none");
        } else {
            out.printf("hazards: %d (first %d listed)%n", r.hazards().size(), Math.min(5, r.hazards().size()));
            r.hazards().stream().limit(5).forEach(h -> out.printf("  rep %s, %s ns, cpu%s: %s %s%n",
                    h.rep(), h.hazard().timeNs(), h.hazard().cpu(), h.hazard().kind(), h.hazard().detail()));
        }
        out.println();
        out.printf("sim: %d steps, %.6f s simulated; host: %.3f s wall, %.0f steps/s%n",
                r.steps(), r.simulatedS(), r.wallS(), r.stepsPerSecond());
    }
}
