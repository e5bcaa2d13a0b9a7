package dev.pvtlb.cli;

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
final class SteadyState {
    /** One figure at its window and at twice that window. */
    record Figure(ValidationResult.Figure atWindow, double doubled, MeasurementWindow window, MeasurementWindow doubledWindow) {
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

    /** Per experiment id, its figures in table order. */
    private final Map<String, List<Figure>> figures;

    SteadyState(Map<String, List<Figure>> figures) {
        this.figures = figures;
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
        Map<String, List<Figure>> figures = new LinkedHashMap<>();
        for (ValidationResult r : results) {
            ValidationResult twice = ValidationResult.of(r.experiment(), doubled);
            List<Figure> fs = new ArrayList<>();
            for (int i = 0; i < r.figures().size(); i++) {
                fs.add(new Figure(r.figures().get(i), twice.figures().get(i).emulated(), r.window(), twice.window()));
            }
            figures.put(r.experiment().id(), List.copyOf(fs));
        }
        return new SteadyState(figures);
    }

    /** The figure {@code index} of experiment {@code id}, or null when it was not doubled. */
    Figure figure(String id, int index) {
        List<Figure> fs = figures.get(id);
        return fs == null ? null : fs.get(index);
    }

    long steadyCount() {
        return figures.values().stream().flatMap(List::stream).filter(Figure::steady).count();
    }

    long count() {
        return figures.values().stream().mapToLong(List::size).sum();
    }

    void print(PrintWriter out) {
        out.printf("%nsteady state (--steady): each figure again with its measurement window doubled; steady when it moves by less "
                + "than a quarter of its band's width:%n");
        String row = "%-19s %-47s %-11s %-11s %-11s %-11s %s%n";
        out.printf(row, "id", "figure", "emulated", "doubled", "moved", "tolerance", "steady");
        for (var e : figures.entrySet()) {
            for (Figure f : e.getValue()) {
                FigureUnit u = f.atWindow().figure().unit();
                out.printf(row, e.getKey(), f.atWindow().figure().name(), u.format(f.atWindow().emulated()), u.format(f.doubled()),
                        u.formatDifference(f.moved()), u.formatSpread(f.tolerance()), f.steady() ? "yes" : "no");
            }
        }
        out.printf("%nwindows, measured and doubled:%n");
        for (var e : figures.entrySet()) {
            Figure f = e.getValue().get(0);
            out.printf("%-19s %s; doubled: %s%n", e.getKey(), f.window().describe(), f.doubledWindow().describe());
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
        List<Figure> fs = figures.get(id);
        return fs == null || fs.isEmpty() ? null : fs.get(0).doubledWindow();
    }

    String toHtml() {
        StringBuilder b = new StringBuilder("<h2>Steady state</h2>\n<p>Each figure again with its measurement window doubled; "
                + "steady when it moves by less than a quarter of its band's width.</p>\n<table><tr><th>experiment</th><th>figure</th>"
                + "<th>emulated</th><th>doubled</th><th>moved</th><th>tolerance</th><th>steady</th></tr>\n");
        for (var e : figures.entrySet()) {
            for (Figure f : e.getValue()) {
                FigureUnit u = f.atWindow().figure().unit();
                String v = f.steady() ? "pass" : "fail";
                b.append("<tr><td>").append(Html.escape(e.getKey())).append("</td><td>").append(Html.escape(f.atWindow().figure().name()))
                        .append("</td><td>").append(Html.escape(u.format(f.atWindow().emulated()))).append("</td><td>")
                        .append(Html.escape(u.format(f.doubled()))).append("</td><td>").append(Html.escape(u.formatDifference(f.moved())))
                        .append("</td><td>").append(Html.escape(u.formatSpread(f.tolerance()))).append("</td><td class='").append(v)
                        .append("'>").append(f.steady() ? "yes" : "no").append("</td></tr>\n");
            }
        }
        return b.append("</table>\n").toString();
    }
}
