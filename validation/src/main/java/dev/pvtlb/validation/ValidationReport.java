package dev.pvtlb.validation;

import dev.pvtlb.report.Html;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.SvgChart;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code pvtlb validate} prints and writes: the text table, the JSON document and the HTML
 * page, from the same results. Nothing here reads a clock, so two runs give the same bytes.
 */
record ValidationReport(List<ValidationResult> results, String spreadSource, String fidelity, int reps) {
    private static final String ROW = "%-19s %-47s %-11s %-11s %-22s %s%n";

    /** Where validate's standard errors come from: the repetitions of each run. */
    static final String REPETITIONS = "from the spread of its runs' repetitions (RunResults.standardError(); counters carry none)";

    ValidationReport(List<ValidationResult> results) {
        this(results, REPETITIONS, null, ValidationRun.REPS);
    }

    /** A report whose runs' level is not stated (host validation's rounds). */
    ValidationReport(List<ValidationResult> results, String spreadSource) {
        this(results, spreadSource, null, ValidationRun.REPS);
    }

    void print(PrintWriter out) {
        out.printf("validate: %d experiment(s) of validation.md, each run with --reps %d --seed %d%s%n%n",
                results.size(), reps, ValidationRun.SEED, fidelity == null ? "" : " at fidelity " + fidelity);
        printTable(out);
    }

    /** The table, the curves and the verdicts line, without the header. */
    void printTable(PrintWriter out) {
        out.printf(ROW, "id", "figure", "published", "emulated", "band", "verdict");
        for (ValidationResult r : results) {
            for (ValidationResult.Figure f : r.figures()) {
                FigureUnit u = f.figure().unit();
                out.printf(ROW, r.experiment().id(), f.figure().name(), u.format(f.figure().published()), u.format(f.emulated()),
                        f.figure().band().describe(u), f.markedVerdict());
            }
        }
        for (ValidationResult r : results) {
            if (r.curve() != null) {
                ValidationCurve c = r.experiment().curve();
                List<String> points = new ArrayList<>();
                for (int i = 0; i < c.x().length; i++) {
                    points.add(Json.number(c.x()[i]) + ": " + c.unit().format(r.curve()[i]) + " (" + c.unit().format(c.published()[i]) + ")");
                }
                out.printf("%n%s, %s, emulated (published): %s%n", r.experiment().id(), c.name(), String.join(", ", points));
            }
        }
        out.printf("%nmachine of each experiment (pvtlb profiles):%n");
        for (ValidationResult r : results) {
            out.printf("%-19s %-20s %s%n", r.experiment().id(), r.experiment().machineName(), r.experiment().machineDescription());
        }
        if (results.stream().anyMatch(r -> r.window() != null)) {
            out.printf("%nmeasurement window of each experiment (simulated time of one repetition after its warm-up):%n");
            for (ValidationResult r : results) {
                if (r.window() != null) {
                    out.printf("%-19s %s%n", r.experiment().id(), r.window().describe());
                }
            }
        }
        out.printf("%none standard error of each figure, %s:%n", spreadSource);
        for (ValidationResult r : results) {
            for (ValidationResult.Figure f : r.figures()) {
                out.printf("%-19s %-47s %s%n", r.experiment().id(), f.figure().name(), f.figure().unit().formatSpread(f.standardError()));
            }
        }
        out.println();
        List<String> verdicts = new ArrayList<>();
        long passed = results.stream().filter(ValidationResult::pass).count();
        for (ValidationResult r : results) {
            verdicts.add(r.experiment().id() + " " + r.markedVerdict());
        }
        out.printf("verdicts: %s (%d of %d pass)%n", String.join(", ", verdicts), passed, results.size());
        if (ValidationResult.anyUnresolved(results)) {
            // The host's spread comes from its rounds (--rounds), not from repetitions.
            out.printf("%s%s%n", ValidationResult.UNRESOLVED_LEGEND, REPETITIONS.equals(spreadSource) ? " (--reps " + reps + ")" : "");
        }
    }

    /** {@code {"experiments": [...]}}, the interface of acceptance/README.md, with each figure's numbers beside the readable strings. */
    Map<String, Object> toMap() {
        return toMap(null);
    }

    /** As {@link #toMap()}, each figure with its steady-state fields when {@code steady} is given ({@code validate --steady}). */
    Map<String, Object> toMap(SteadyState steady) {
        List<Object> experiments = new ArrayList<>();
        for (ValidationResult r : results) {
            Map<String, Object> e = new LinkedHashMap<>();
            ValidationExperiment x = r.experiment();
            e.put("id", x.id());
            e.put("source", x.source());
            e.put("setup", x.setup());
            e.put("profile", x.machineName());
            if (r.window() != null) {
                Map<String, Object> w = r.window().toMap();
                MeasurementWindow doubled = steady == null ? null : steady.doubledWindow(x.id());
                if (doubled != null) {
                    w.put("doubled_s", doubled.measuredS());
                }
                e.put("window", w);
            }
            List<String> published = new ArrayList<>();
            List<String> emulated = new ArrayList<>();
            List<String> bands = new ArrayList<>();
            List<Object> figures = new ArrayList<>();
            for (int i = 0; i < r.figures().size(); i++) {
                ValidationResult.Figure f = r.figures().get(i);
                ValidationFigure d = f.figure();
                FigureUnit u = d.unit();
                published.add(d.name() + " " + u.format(d.published()));
                emulated.add(d.name() + " " + u.format(f.emulated()));
                bands.add(d.name() + " " + d.band().describe(u));
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("figure", d.name());
                m.put("unit", u.symbol);
                m.put("published", d.published());
                m.put("as_published", d.asPublished());
                m.put("emulated", f.emulated());
                m.put("standard_error", f.standardError());
                Map<String, Object> band = new LinkedHashMap<>();
                band.put("text", d.band().describe(u));
                band.putAll(d.band().toMap());
                m.put("band", band);
                m.put("verdict", f.verdict());
                m.put("resolved", f.resolved());
                if (steady != null) {
                    steady.annotate(x.id(), i, m);
                }
                figures.add(m);
            }
            e.put("published", String.join("; ", published));
            e.put("emulated", String.join("; ", emulated));
            e.put("band", String.join("; ", bands));
            e.put("verdict", r.verdict());
            e.put("resolved", r.resolved());
            e.put("figures", figures);
            if (r.curve() != null) {
                ValidationCurve c = x.curve();
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", c.name());
                m.put("unit", c.unit().symbol);
                m.put(c.xLabel(), list(c.x()));
                m.put("published", list(c.published()));
                m.put("emulated", list(r.curve()));
                e.put("curve", m);
            }
            e.put("runs", x.runs().stream().map(run -> run.withReps(reps).commandLine()).toList());
            experiments.add(e);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        if (fidelity != null) {
            m.put("fidelity", fidelity);
        }
        m.put("experiments", experiments);
        m.put("not_run_yet", ValidationExperiments.NOT_RUN_YET);
        return m;
    }

    String toJson() {
        return Json.write(toMap());
    }

    private static List<Double> list(double[] xs) {
        List<Double> l = new ArrayList<>();
        for (double x : xs) {
            l.add(x);
        }
        return l;
    }

    /** The values with any that could not be computed as NaN, which a chart leaves out (an infinity would flatten it). */
    private static double[] finite(double[] ys) {
        double[] out = ys.clone();
        for (int i = 0; i < out.length; i++) {
            if (!Double.isFinite(out[i])) {
                out[i] = Double.NaN;
            }
        }
        return out;
    }

    /** A self-contained page: per experiment its source, the figures' table and a chart of published vs emulated. */
    String toHtml() {
        StringBuilder b = new StringBuilder();
        b.append(Html.head("pvtlb validate"))
                .append("<h1>pvtlb validate</h1>\n<p>The experiments of validation.md, each run with --reps ")
                .append(reps).append(" --seed ").append(ValidationRun.SEED)
                .append(fidelity == null ? "" : " at fidelity " + Html.escape(fidelity))
                .append(". Not run yet: ").append(Html.escape(String.join(", ", ValidationExperiments.NOT_RUN_YET))).append(".</p>\n");
        for (ValidationResult r : results) {
            ValidationExperiment x = r.experiment();
            b.append("<h2>").append(Html.escape(x.id())).append(" <span class='").append(r.verdict()).append("'>")
                    .append(r.markedVerdict()).append("</span></h2>\n<p>").append(Html.escape(x.source())).append("<br>")
                    .append(Html.escape(x.setup())).append("<br>machine: ").append(Html.escape(x.machineName() + ", " + x.machineDescription()))
                    .append(r.window() == null ? "" : "<br>window: " + Html.escape(r.window().describe())).append("</p>\n<table><tr><th>figure</th><th>published</th><th>as published</th>"
                            + "<th>emulated</th><th>band</th><th>verdict</th></tr>\n");
            for (ValidationResult.Figure f : r.figures()) {
                FigureUnit u = f.figure().unit();
                String v = f.verdict();
                b.append("<tr><td>").append(Html.escape(f.figure().name())).append("</td><td>")
                        .append(Html.escape(u.format(f.figure().published()))).append("</td><td>")
                        .append(Html.escape(f.figure().asPublished())).append("</td><td>").append(Html.escape(u.format(f.emulated())))
                        .append(Double.isFinite(f.standardError()) ? " " + Html.escape(u.formatSpread(f.standardError())) : "")
                        .append("</td><td>").append(Html.escape(f.figure().band().describe(u))).append("</td><td class='").append(v)
                        .append("'>").append(Html.escape(f.markedVerdict())).append("</td></tr>\n");
            }
            b.append("</table>\n");
            if (ValidationResult.anyUnresolved(List.of(r))) {
                b.append("<p>").append(Html.escape(ValidationResult.UNRESOLVED_LEGEND)).append(".</p>\n");
            }
            for (ValidationResult.Figure f : r.figures()) {
                if (Double.isFinite(f.emulated())) { // a figure that could not be computed has only its table row
                    b.append(SvgChart.barChart(f.figure().name(), f.figure().unit().symbol, List.of("published", "emulated"),
                            new double[] {f.figure().published(), f.emulated()},
                            new double[] {0, Double.isFinite(f.standardError()) ? f.standardError() : 0}));
                }
            }
            if (r.curve() != null) {
                ValidationCurve c = x.curve();
                b.append(SvgChart.lineChart(c.name(), c.xLabel(), c.unit().symbol, c.x(), List.of(
                        new SvgChart.Series("published", c.published(), new double[c.x().length]),
                        new SvgChart.Series("emulated", finite(r.curve()), new double[c.x().length]))));
            }
            b.append("<p>Runs:</p>\n<ul class='runs'>\n");
            for (ValidationRun run : x.runs()) {
                b.append("<li><code>").append(Html.escape(run.withReps(reps).commandLine())).append("</code></li>\n");
            }
            b.append("</ul>\n");
        }
        return b.append("</body></html>\n").toString();
    }
}
