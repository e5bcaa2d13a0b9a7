package dev.pvtlb.cli;

import dev.pvtlb.config.Fidelity;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.LocalRuns;
import dev.pvtlb.study.ScenarioArgs;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb compare SCENARIO --vary k=v1,v2 [--vary k2=...]}: runs every combination with
 * the same seeds. A numeric --vary (threads first, else the last numeric one given) is the swept
 * parameter, one table row per value; the other --vary keys form the variants compared in
 * columns.
 */
@Command(name = "compare", description = "Run a scenario under each combination of --vary values and compare the metrics.")
final class CompareCommand implements Callable<Integer> {
    /** Bound on runs of one comparison, so a typo cannot queue days of work. */
    static final int MAX_RUNS = 512;

    @Spec
    CommandSpec spec;

    @Mixin
    ScenarioSelection selection;

    @Option(names = "--vary", paramLabel = "KEY=V1,V2", required = true,
            description = "values to compare for one key (a --set key, or backend); repeatable")
    List<String> varies = new ArrayList<>();

    @Option(names = "--seed", paramLabel = "N", description = "seed of every variant (default: the scenario's, else 1)")
    Long seed;

    @Option(names = "--reps", paramLabel = "R", description = "repetitions per variant, seeds seed..seed+R-1 (default: 3)")
    Integer reps;

    @Option(names = "--json", paramLabel = "FILE", description = "write every run's report as JSON")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE", description = "write the table as CSV")
    Path csv;

    @Option(names = "--html", paramLabel = "FILE", description = "write a self-contained HTML page with SVG charts")
    Path html;

    @Option(names = "--quiet", description = "no progress bar on stderr")
    boolean quiet;

    @Mixin
    BackendJarOption backendJar;

    @Option(names = "--parallel", paramLabel = "N",
            description = "variants run at once (default: the number of cores); the output is the same for any N")
    Integer parallel;

    record Axis(String key, List<String> values) {
        boolean numeric() {
            for (String v : values) {
                try {
                    Double.parseDouble(v);
                } catch (NumberFormatException e) {
                    return false;
                }
            }
            return true;
        }
    }

    @Override
    public Integer call() throws IOException {
        ReportFile.check(json, "--json");
        ReportFile.check(csv, "--csv");
        ReportFile.check(html, "--html");
        backendJar.register();
        if (parallel != null && parallel < 1) {
            throw new ModelException("--parallel must be at least 1, got " + parallel);
        }
        Comparison c = compare(selection.scenario, selection.backend, selection.sets, seed, reps == null ? 3 : reps, parse(varies),
                new ProgressBar(spec.commandLine().getErr(), quiet),
                parallel == null ? Runtime.getRuntime().availableProcessors() : parallel);
        c.print(spec.commandLine().getOut());
        write(c, json, csv, html, "pvtlb compare " + selection.scenario);
        int hazards = 0;
        for (RunReport[] row : c.reports) {
            for (RunReport r : row) {
                hazards += r.hazards().size();
            }
        }
        return hazards == 0 ? 0 : 1;
    }

    static void write(Comparison c, Path json, Path csv, Path html, String title) throws IOException {
        if (json != null) {
            ReportFile.write(json, "--json", c.toJson());
        }
        if (csv != null) {
            ReportFile.write(csv, "--csv", c.toCsv());
        }
        if (html != null) {
            ReportFile.write(html, "--html", c.toHtml(title));
        }
    }

    static List<Axis> parse(List<String> varies) {
        List<Axis> axes = new ArrayList<>();
        for (String v : varies) {
            int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new ModelException("--vary expects KEY=V1,V2,..., got '" + v + "'");
            }
            String key = v.substring(0, eq).strip();
            if (axes.stream().anyMatch(a -> a.key().equals(key))) {
                throw new ModelException("--vary " + key + " given twice");
            }
            LinkedHashSet<String> values = new LinkedHashSet<>();
            for (String x : v.substring(eq + 1).split(",", -1)) {
                if (x.isBlank()) {
                    throw new ModelException("--vary " + key + ": empty value in '" + v.substring(eq + 1) + "'");
                }
                if (!values.add(x.strip())) {
                    throw new ModelException("--vary " + key + ": value '" + x.strip() + "' given twice");
                }
            }
            axes.add(new Axis(key, List.copyOf(values)));
        }
        return axes;
    }

    /** Runs the comparison; every combination is checked (built) before the first run starts. */
    static Comparison compare(String scenario, String backend, List<String> sets, Long seed, int reps, List<Axis> axes,
                              ProgressBar progress, int parallel) {
        Axis swept = null;
        for (Axis a : axes) {
            if (a.key().equals("threads") && a.numeric()) {
                swept = a;
            }
        }
        if (swept == null) {
            for (Axis a : axes) {
                if (a.numeric() && a.values().size() > 1) {
                    swept = a;
                }
            }
        }
        List<Axis> others = new ArrayList<>(axes);
        others.remove(swept);
        List<List<String>> combos = new ArrayList<>();
        combos.add(List.of());
        for (Axis a : others) {
            List<List<String>> next = new ArrayList<>();
            for (List<String> c : combos) {
                for (String v : a.values()) {
                    List<String> n = new ArrayList<>(c);
                    n.add(a.key() + "=" + v);
                    next.add(n);
                }
            }
            combos = next;
            if (combos.size() > MAX_RUNS) {
                break;
            }
        }
        List<String> rows = swept == null ? List.of("") : swept.values();
        long runs = (long) rows.size() * combos.size();
        if (runs > MAX_RUNS) {
            throw new ModelException("comparison of " + runs + " runs exceeds the limit of " + MAX_RUNS + " (fewer --vary values)");
        }
        List<String> variants = combos.stream().map(c -> c.isEmpty() ? "base" : String.join(" ", c)).toList();
        Scenario[][] scenarios = new Scenario[rows.size()][combos.size()];
        for (int r = 0; r < rows.size(); r++) {
            for (int v = 0; v < combos.size(); v++) {
                Scenario s = ScenarioArgs.build(scenario, backend, sets, seed, reps).defaultFidelity(Fidelity.FAST);
                for (String kv : combos.get(v)) {
                    ScenarioArgs.set(s, kv, "--vary");
                }
                if (swept != null) {
                    ScenarioArgs.set(s, swept.key() + "=" + rows.get(r), "--vary");
                }
                ScenarioArgs.check(s); // topology, profile and knob values are checked now, not after other runs
                scenarios[r][v] = s;
            }
        }
        // Every run is deterministic on its own, so the variants go to a pool and come back in grid order.
        List<Integer> cells = new ArrayList<>();
        for (int i = 0; i < rows.size() * combos.size(); i++) {
            cells.add(i);
        }
        int width = combos.size();
        String sweptKey = swept == null ? null : swept.key();
        List<RunReport> done;
        try {
            done = LocalRuns.run(cells, parallel, i -> Runner.run(scenarios[i / width][i % width]),
                    i -> (sweptKey == null ? "" : sweptKey + "=" + rows.get(i / width) + " ") + variants.get(i % width),
                    "pvtlb-compare", progress);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ModelException("compare: interrupted");
        }
        RunReport[][] reports = new RunReport[rows.size()][combos.size()];
        for (int i = 0; i < done.size(); i++) {
            reports[i / width][i % width] = done.get(i);
        }
        return new Comparison(scenarios[0][0].name(), swept == null ? null : swept.key(), rows, variants, reports);
    }
}
