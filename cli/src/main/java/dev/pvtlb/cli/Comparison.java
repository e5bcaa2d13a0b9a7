package dev.pvtlb.cli;

import dev.pvtlb.report.Csv;
import dev.pvtlb.report.Figures;
import dev.pvtlb.report.Html;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.SvgChart;
import dev.pvtlb.run.RunReport;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of a comparison: {@code reports[row][variant]}, where rows are the values of the
 * swept numeric parameter (one row, labelled null, when nothing is swept) and variants are the
 * combinations of the other --vary values. Prints tables shaped like the reference threads'
 * (value (stdev) per variant, change in percent against the first variant) and writes CSV, JSON
 * and a self-contained HTML page with SVG charts. A single run is a comparison of one.
 */
final class Comparison {
    /** Counters shown in the text table (all counters go to CSV and JSON). */
    static final List<String> TABLE_COUNTERS = List.of("nr_tlb_remote_flush", "nr_tlb_remote_flush_received", "ipis_sent",
            "hypercalls", "vmexits");

    final String scenario;
    final String swept;
    final List<String> rows;
    final List<String> variants;
    final RunReport[][] reports;

    Comparison(String scenario, String swept, List<String> rows, List<String> variants, RunReport[][] reports) {
        this.scenario = scenario;
        this.swept = swept;
        this.rows = rows;
        this.variants = variants;
        this.reports = reports;
    }

    private List<String> metrics() {
        return new ArrayList<>(reports[0][0].metrics().keySet());
    }

    private RunReport first() {
        return reports[0][0];
    }

    /** One table of the comparison: its caption (null: none), the head of its first column, the variants' heads, its rows. */
    record Table(String caption, String first, List<String> heads, List<String[]> lines) { }

    /** The tables print and the HTML page show: metrics and counters per variant, or one table per metric over the swept values. */
    List<Table> tables() {
        RunReport f = first();
        List<String> heads = List.copyOf(variants);
        List<Table> tables = new ArrayList<>();
        if (swept == null) {
            List<String[]> lines = new ArrayList<>();
            for (String m : metrics()) {
                lines.add(cells(m + " (" + f.metrics().get(m).unit() + ")", 0, m, null));
            }
            for (String c : TABLE_COUNTERS) {
                if (f.counters().containsKey(c)) {
                    lines.add(cells(c + " (per rep)", 0, null, c));
                }
            }
            tables.add(new Table(null, "metric", heads, lines));
        } else {
            for (String m : metrics()) {
                List<String[]> lines = new ArrayList<>();
                for (int r = 0; r < rows.size(); r++) {
                    lines.add(cells(rows.get(r), r, m, null));
                }
                tables.add(new Table(m + " (" + f.metrics().get(m).unit() + ")", swept, heads, lines));
            }
        }
        return tables;
    }

    /** The variants by letter, as the text tables' legend shows them. */
    private String letter(int v) {
        return (char) ('A' + Math.min(v, 25)) + (v >= 26 ? String.valueOf(v) : "");
    }

    private long hazards() {
        long hazards = 0;
        for (RunReport[] row : reports) {
            for (RunReport r : row) {
                hazards += r.hazards().size();
            }
        }
        return hazards;
    }

    private String hazardLine() {
        long n = hazards();
        return n == 0 ? "hazards: none" : "hazards: " + n + " (see the JSON report)";
    }

    void print(PrintWriter out) {
        RunReport f = first();
        out.printf("compare %s  backend %s  seed %d  reps %d  profile %s  fidelity %s%n", scenario, f.backend(), f.seed(), f.reps(), f.profile(), f.fidelity());
        for (int v = 0; v < variants.size(); v++) {
            out.printf("  %s = %s%n", letter(v), variants.get(v));
        }
        out.println();
        for (Table t : tables()) {
            if (t.caption() != null) {
                out.println(t.caption());
            }
            table(out, t.first(), t.heads(), t.lines());
            if (swept != null) {
                out.println();
            }
        }
        out.println(hazardLine());
    }

    /** One table row: a label, then per variant "mean (stdev)" plus the change against variant A (or row 1 with one variant). */
    private String[] cells(String label, int row, String metric, String counter) {
        String[] c = new String[variants.size() + 1];
        c[0] = label;
        for (int v = 0; v < variants.size(); v++) {
            double mean = value(row, v, metric, counter);
            String cell = Figures.num(mean);
            if (metric != null) {
                cell += " (" + Figures.num(reports[row][v].metrics().get(metric).stdev()) + ")";
            }
            if (v > 0) {
                cell += " " + Figures.pct(mean, value(row, 0, metric, counter));
            } else if (variants.size() == 1 && row > 0) {
                cell += " " + Figures.pct(mean, value(0, 0, metric, counter));
            }
            c[v + 1] = cell;
        }
        return c;
    }

    private double value(int row, int v, String metric, String counter) {
        RunReport r = reports[row][v];
        if (metric != null) {
            RunReport.Summary s = r.metrics().get(metric);
            return s == null ? 0 : s.mean();
        }
        return r.counters().getOrDefault(counter, 0L) / (double) r.reps();
    }

    private static void table(PrintWriter out, String first, List<String> heads, List<String[]> lines) {
        int[] w = new int[heads.size() + 1];
        w[0] = first.length();
        for (int i = 0; i < heads.size(); i++) {
            w[i + 1] = heads.get(i).length();
        }
        for (String[] l : lines) {
            for (int i = 0; i < l.length; i++) {
                w[i] = Math.max(w[i], l[i].length());
            }
        }
        StringBuilder h = new StringBuilder(pad(first, w[0]));
        for (int i = 0; i < heads.size(); i++) {
            h.append("  ").append(pad(heads.get(i), w[i + 1]));
        }
        out.println(h.toString().stripTrailing());
        for (String[] l : lines) {
            StringBuilder b = new StringBuilder(pad(l[0], w[0]));
            for (int i = 1; i < l.length; i++) {
                b.append("  ").append(pad(l[i], w[i]));
            }
            out.println(b.toString().stripTrailing());
        }
    }

    private static String pad(String s, int w) {
        return s + " ".repeat(Math.max(0, w - s.length()));
    }

    String toCsv() {
        StringBuilder b = new StringBuilder();
        b.append(swept == null ? "" : Csv.cell(swept) + ",").append("variant,metric,mean,stdev,unit,change_pct\n");
        for (int r = 0; r < rows.size(); r++) {
            for (int v = 0; v < variants.size(); v++) {
                RunReport rep = reports[r][v];
                for (String m : metrics()) {
                    RunReport.Summary s = rep.metrics().get(m);
                    double base = value(r, 0, m, null);
                    row(b, r, v, m, Json.number(s.mean()), Json.number(s.stdev()), s.unit(),
                            v == 0 || base == 0 ? "" : Json.number((s.mean() - base) / Math.abs(base) * 100));
                }
                for (var c : rep.counters().entrySet()) {
                    row(b, r, v, c.getKey(), Json.number(c.getValue() / (double) rep.reps()), "", "per rep", "");
                }
            }
        }
        return b.toString();
    }

    private void row(StringBuilder b, int r, int v, String metric, String mean, String sd, String unit, String change) {
        if (swept != null) {
            b.append(Csv.cell(rows.get(r))).append(',');
        }
        b.append(Csv.cell(variants.get(v))).append(',').append(Csv.cell(metric)).append(',').append(mean).append(',')
                .append(sd).append(',').append(Csv.cell(unit)).append(',').append(change).append('\n');
    }

    String toJson() {
        return Json.write(toMap());
    }

    /** Every run's report by row and variant, as {@code compare --json} writes it. */
    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", scenario);
        m.put("fidelity", first().fidelity());
        m.put("swept", swept == null ? "" : swept);
        m.put("rows", rows);
        m.put("variants", variants);
        List<Object> runs = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            for (int v = 0; v < variants.size(); v++) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("row", rows.get(r));
                e.put("variant", variants.get(v));
                e.put("report", reports[r][v].toMap());
                runs.add(e);
            }
        }
        m.put("runs", runs);
        return m;
    }

    String toHtml(String title) {
        return Html.head(title) + body(title) + "</body></html>\n";
    }

    /** The page's content: heading, charts, then the numbers as tables (also used inside the demo page). */
    String body(String title) {
        StringBuilder b = new StringBuilder();
        RunReport f = first();
        b.append("<h1>").append(Html.escape(title)).append("</h1>\n<p>scenario <b>").append(Html.escape(scenario))
                .append("</b>, profile ").append(Html.escape(f.profile())).append(", fidelity ").append(Html.escape(f.fidelity()))
                .append(", seed ").append(f.seed()).append(", reps ")
                .append(f.reps()).append(swept == null ? "" : ", swept: " + Html.escape(swept)).append("</p>\n");
        List<String> same = new ArrayList<>();
        for (String m : metrics()) {
            String unit = f.metrics().get(m).unit();
            if (variants.size() > 1 && sameInEveryVariant(m)) {
                same.add(m);
                continue;
            }
            if (swept != null && numeric(rows)) {
                double[] x = rows.stream().mapToDouble(Double::parseDouble).toArray();
                List<SvgChart.Series> series = new ArrayList<>();
                for (int v = 0; v < variants.size(); v++) {
                    double[] y = new double[rows.size()];
                    double[] sd = new double[rows.size()];
                    for (int r = 0; r < rows.size(); r++) {
                        y[r] = reports[r][v].metrics().get(m).mean();
                        sd[r] = reports[r][v].metrics().get(m).stdev();
                    }
                    series.add(new SvgChart.Series(variants.get(v), y, sd));
                }
                b.append(SvgChart.lineChart(m + " vs " + swept, swept, m + " (" + unit + ")", x, series));
            } else {
                for (int r = 0; r < rows.size(); r++) {
                    double[] y = new double[variants.size()];
                    double[] sd = new double[variants.size()];
                    for (int v = 0; v < variants.size(); v++) {
                        y[v] = reports[r][v].metrics().get(m).mean();
                        sd[v] = reports[r][v].metrics().get(m).stdev();
                    }
                    b.append(SvgChart.barChart(m + (swept == null ? "" : " at " + swept + "=" + rows.get(r)),
                            m + " (" + unit + ")", variants, y, sd));
                }
            }
        }
        if (!same.isEmpty()) {
            b.append("<p class='same'>Not charted, the same in every variant: ").append(Html.escape(String.join(", ", same)))
                    .append(".</p>\n");
        }
        htmlTables(b);
        for (int r = 0; r < rows.size(); r++) {
            b.append("<h2>Cost breakdown").append(swept == null ? "" : " at " + Html.escape(swept + "=" + rows.get(r)))
                    .append("</h2>\n<p>Mean virtual time of each part of a remote flush, in ns per the event named.</p>\n")
                    .append("<table><tr><th>part</th><th>per</th>");
            for (String v : variants) {
                b.append("<th>").append(Html.escape(v.isEmpty() ? reports[r][0].backend() : v)).append("</th>");
            }
            b.append("<th>what</th></tr>\n");
            List<List<RunReport.CostRow>> cols = new ArrayList<>();
            for (int v = 0; v < variants.size(); v++) {
                cols.add(reports[r][v].costBreakdown());
            }
            for (int i = 0; i < cols.get(0).size(); i++) {
                RunReport.CostRow row = cols.get(0).get(i);
                b.append("<tr><td>").append(Html.escape(row.part())).append("</td><td>").append(Html.escape(row.per())).append("</td>");
                for (List<RunReport.CostRow> col : cols) {
                    double mean = col.get(i).meanNs();
                    b.append("<td>").append(Double.isNaN(mean) ? "-" : Figures.num(mean)).append("</td>");
                }
                b.append("<td style='text-align:left'>").append(Html.escape(row.description())).append("</td></tr>\n");
            }
            b.append("</table>\n");
        }
        for (int r = 0; r < rows.size(); r++) {
            List<String> labels = new ArrayList<>();
            for (String v : variants) {
                labels.add(v.isEmpty() ? reports[r][0].backend() : v);
            }
            OvercommitBreakdown.html(b, swept == null ? "" : " at " + swept + "=" + rows.get(r), labels, reports[r]);
        }
        return b.toString();
    }

    /** Whether metric {@code m} has one mean in every variant of each row (a chart of it would show nothing). */
    private boolean sameInEveryVariant(String m) {
        for (RunReport[] row : reports) {
            for (RunReport r : row) {
                if (r.metrics().get(m).mean() != row[0].metrics().get(m).mean()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The text tables as HTML tables: the variants' legend, each table, the hazards line. */
    private void htmlTables(StringBuilder b) {
        b.append("<h2>Numbers</h2>\n<p>Mean (stdev) per variant; the change against variant A in percent.</p>\n<ul class='variants'>");
        for (int v = 0; v < variants.size(); v++) {
            b.append("<li><b>").append(letter(v)).append("</b> = ").append(Html.escape(variants.get(v).isEmpty()
                    ? first().backend() : variants.get(v))).append("</li>");
        }
        b.append("</ul>\n");
        for (Table t : tables()) {
            b.append("<table class='numbers'>");
            if (t.caption() != null) {
                b.append("<caption>").append(Html.escape(t.caption())).append("</caption>");
            }
            b.append("<tr><th>").append(Html.escape(t.first())).append("</th>");
            for (int v = 0; v < t.heads().size(); v++) {
                b.append("<th>").append(letter(v)).append("</th>");
            }
            b.append("</tr>\n");
            for (String[] l : t.lines()) {
                b.append("<tr>");
                for (String c : l) {
                    b.append("<td>").append(Html.escape(c)).append("</td>");
                }
                b.append("</tr>\n");
            }
            b.append("</table>\n");
        }
        b.append("<p>").append(Html.escape(hazardLine())).append("</p>\n");
    }

    private static boolean numeric(List<String> xs) {
        for (String s : xs) {
            try {
                Double.parseDouble(s);
            } catch (NumberFormatException | NullPointerException e) {
                return false;
            }
        }
        return true;
    }
}
