package dev.pvtlb.validation;

import dev.pvtlb.report.Html;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.run.RunReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code pvtlb validate --steady}: every run again with its measurement window doubled
 * ({@link ValidationRun#doubled()}), and each figure computed from those. A figure is steady when
 * the longer window moves it by less than a quarter of its band's width
 * ({@link Band#steadyTolerance(double)}): then the run length chosen is not what decides where
 * the figure falls in its band. A figure that still drifts with length (a warm-up that the
 * window does not amortise, a queue that keeps growing) is reported not steady.
 */
public final class SteadyState {
    /** One figure at its window and at twice that window. */
    record Figure(ValidationResult.Figure atWindow, double doubled) {
        double tolerance() {
            return atWindow.figure().band().steadyTolerance(atWindow.figure().published());
        }

        double moved() {
            return doubled - atWindow.emulated();
        }

        boolean steady() {
            return Double.isFinite(doubled) && Double.isFinite(atWindow.emulated()) && Math.abs(moved()) < tolerance();
        }
    }

    /** Each experiment's result at its window, and the same experiment at twice the window, by id. */
    private final Map<String, ValidationResult> atWindow = new LinkedHashMap<>();
    private final Map<String, ValidationResult> twice = new LinkedHashMap<>();

    private SteadyState(List<ValidationResult> results, RunResults doubled) {
        for (ValidationResult r : results) {
            atWindow.put(r.experiment().id(), r);
            twice.put(r.experiment().id(), ValidationResult.of(r.experiment(), doubled));
        }
    }

    /** Every run with its window doubled; made before any run, so a run that cannot be doubled stops the command first. */
    static List<ValidationRun> doubledRuns(List<ValidationRun> runs) {
        return runs.stream().map(ValidationRun::doubled).toList();
    }

    /** Runs the doubled runs ({@code parallel} at once) and pairs each figure with its doubled self. */
    static SteadyState run(List<ValidationResult> results, List<ValidationRun> runs, List<ValidationRun> doubledRuns, int parallel,
                           ProgressBar progress) throws InterruptedException {
        RunResults doubled = ValidationRunner.run(doubledRuns, parallel, progress);
        Map<String, RunReport> byKey = new LinkedHashMap<>();
        for (ValidationRun r : runs) {
            byKey.put(r.key(), doubled.reports().get(r.key() + ValidationRun.DOUBLED));
        }
        return of(results, new RunResults(byKey));
    }

    /** Each figure of {@code results} set beside the same figure computed from {@code doubled}, keyed as the runs it doubles. */
    static SteadyState of(List<ValidationResult> results, RunResults doubled) {
        return new SteadyState(results, doubled);
    }

    /** The figure {@code index} of experiment {@code id}, or null when it was not doubled. */
    Figure figure(String id, int index) {
        ValidationResult r = atWindow.get(id);
        return r == null ? null : new Figure(r.figures().get(index), twice.get(id).figures().get(index).emulated());
    }

    /** Every figure of experiment {@code id}, in table order. */
    private List<Figure> figures(String id) {
        List<Figure> fs = new ArrayList<>();
        for (int i = 0; i < atWindow.get(id).figures().size(); i++) {
            fs.add(figure(id, i));
        }
        return fs;
    }

    /** Figures that moved by less than their tolerance. */
    public long steadyCount() {
        return atWindow.keySet().stream().flatMap(id -> figures(id).stream()).filter(Figure::steady).count();
    }

    /** Figures compared. */
    public long count() {
        return atWindow.values().stream().mapToLong(r -> r.figures().size()).sum();
    }

    /** The section {@code pvtlb validate --steady} prints after the table. */
    public void print(PrintWriter out) {
        out.printf("%nsteady state (--steady): each figure again with its measurement window doubled; steady when it moves by less "
                + "than a quarter of its band's width:%n");
        String row = "%-19s %-47s %-11s %-11s %-11s %-11s %s%n";
        out.printf(row, "id", "figure", "emulated", "doubled", "moved", "tolerance", "steady");
        for (String id : atWindow.keySet()) {
            for (Figure f : figures(id)) {
                FigureUnit u = f.atWindow().figure().unit();
                out.printf(row, id, f.atWindow().figure().name(), u.format(f.atWindow().emulated()), u.format(f.doubled()),
                        u.formatDifference(f.moved()), u.formatSpread(f.tolerance()), f.steady() ? "yes" : "no");
            }
        }
        out.printf("%nwindows, measured and doubled:%n");
        for (String id : atWindow.keySet()) {
            out.printf("%-19s %s; doubled: %s%n", id, atWindow.get(id).window().describe(), twice.get(id).window().describe());
        }
        out.printf("%nsteady: %d of %d figures%n", steadyCount(), count());
    }

    /** Where the JSON figure {@code index} of {@code id} gets its steady-state fields. */
    void annotate(String id, int index, Map<String, Object> figure) {
        Figure f = figure(id, index);
        if (f != null) {
            figure.put("emulated_doubled", f.doubled());
            figure.put("steady_tolerance", f.tolerance());
            figure.put("steady", f.steady());
        }
    }

    /** The doubled window of experiment {@code id}, or null. */
    MeasurementWindow doubledWindow(String id) {
        ValidationResult r = twice.get(id);
        return r == null ? null : r.window();
    }

    public String toHtml() {
        StringBuilder b = new StringBuilder("<h2>Steady state</h2>\n<p>Each figure again with its measurement window doubled; "
                + "steady when it moves by less than a quarter of its band's width.</p>\n<table><tr><th>experiment</th><th>figure</th>"
                + "<th>emulated</th><th>doubled</th><th>moved</th><th>tolerance</th><th>steady</th></tr>\n");
        for (String id : atWindow.keySet()) {
            for (Figure f : figures(id)) {
                FigureUnit u = f.atWindow().figure().unit();
                String v = f.steady() ? "pass" : "fail";
                b.append("<tr><td>").append(Html.escape(id)).append("</td><td>").append(Html.escape(f.atWindow().figure().name()))
                        .append("</td><td>").append(Html.escape(u.format(f.atWindow().emulated()))).append("</td><td>")
                        .append(Html.escape(u.format(f.doubled()))).append("</td><td>").append(Html.escape(u.formatDifference(f.moved())))
                        .append("</td><td>").append(Html.escape(u.formatSpread(f.tolerance()))).append("</td><td class='").append(v)
                        .append("'>").append(f.steady() ? "yes" : "no").append("</td></tr>\n");
            }
        }
        return b.append("</table>\n").toString();
    }
}
