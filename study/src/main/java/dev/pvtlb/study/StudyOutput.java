package dev.pvtlb.study;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.report.Html;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.SvgChart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a grid study's results: runs.csv and runs.jsonl (one row per run, grid order),
 * summary.html (an inline SVG chart per metric and numeric axis, no JavaScript) and the text
 * summary table (each grid point's metrics averaged over seeds).
 */
public final class StudyOutput {

    private final Study study;
    private final List<? extends Map<String, Object>> rows;
    private final List<String> columns;

    public StudyOutput(Study study, List<? extends Map<String, Object>> rows) {
        this.study = study;
        this.rows = rows;
        this.columns = RunRows.columns(rows);
    }

    public List<String> columns() {
        return columns;
    }

    /** The metric columns to tabulate: the file's list (each must exist) or every metric. */
    public List<String> tabulated() {
        List<String> all = columns.stream().filter(c -> c.startsWith(RunRows.METRIC)).toList();
        if (study.metrics().isEmpty()) {
            return all;
        }
        List<String> out = new ArrayList<>();
        for (String m : study.metrics()) {
            String c = RunRows.METRIC + m;
            if (!all.contains(c)) {
                throw new ModelException(study.file() + ": metrics: '" + m + "' is not a metric of " + study.scenario()
                        + " (it has: " + String.join(", ", all.stream().map(x -> x.substring(RunRows.METRIC.length())).toList())
                        + ")");
            }
            out.add(c);
        }
        return out;
    }

    public String csv() {
        StringBuilder b = new StringBuilder(RunRows.csvHeader(columns)).append('\n');
        rows.forEach(r -> b.append(RunRows.csvLine(columns, r)).append('\n'));
        return b.toString();
    }

    public String jsonl() {
        StringBuilder b = new StringBuilder();
        rows.forEach(r -> b.append(RunRows.jsonLine(columns, r)).append('\n'));
        return b.toString();
    }

    public void writeFiles(Path dir) throws IOException {
        List<String> metrics = tabulated(); // a bad metrics: list fails before anything is written
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("runs.csv"), csv(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("runs.jsonl"), jsonl(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("summary.html"), html(metrics), StandardCharsets.UTF_8);
    }

    /** Grid points in grid order, each with the rows of its seeds. */
    private Map<Map<String, String>, List<Map<String, Object>>> points() {
        Map<Map<String, String>, List<Map<String, Object>>> pts = new LinkedHashMap<>();
        for (Map<String, Object> r : rows) {
            Map<String, String> p = new LinkedHashMap<>();
            for (String a : study.axes().keySet()) {
                p.put(a, RunRows.text(r.get(a)));
            }
            pts.computeIfAbsent(p, k -> new ArrayList<>()).add(r);
        }
        return pts;
    }

    private static double mean(List<Map<String, Object>> rs, String col) {
        double s = 0;
        int n = 0;
        for (Map<String, Object> r : rs) {
            if (r.get(col) instanceof Number x) {
                s += x.doubleValue();
                n++;
            }
        }
        return n == 0 ? Double.NaN : s / n;
    }

    /** The text summary: one line per grid point, metrics averaged over its seeds. */
    public String table() {
        List<List<String>> lines = summary();
        List<String> head = lines.getFirst();
        int[] w = new int[head.size()];
        lines.forEach(l -> {
            for (int i = 0; i < l.size(); i++) {
                w[i] = Math.max(w[i], l.get(i).length());
            }
        });
        StringBuilder b = new StringBuilder();
        for (List<String> l : lines) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < l.size(); i++) {
                String c = l.get(i);
                boolean left = i < study.axes().size();
                line.append(left ? c + " ".repeat(w[i] - c.length()) : " ".repeat(w[i] - c.length()) + c);
                line.append(i + 1 < l.size() ? "  " : "");
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }

    /** The summary's cells, head first: per grid point its axes' values, its runs, the metrics' means over seeds, its hazards. */
    private List<List<String>> summary() {
        List<String> metrics = tabulated();
        List<String> head = new ArrayList<>(study.axes().keySet());
        head.add("runs");
        metrics.forEach(m -> head.add(m.substring(RunRows.METRIC.length())));
        head.add("hazards");
        List<List<String>> lines = new ArrayList<>();
        lines.add(head);
        points().forEach((p, rs) -> {
            List<String> l = new ArrayList<>(p.values());
            l.add(Integer.toString(rs.size()));
            metrics.forEach(m -> l.add(Json.number(mean(rs, m))));
            l.add(Long.toString(Math.round(mean(rs, "hazards") * rs.size())));
            lines.add(l);
        });
        return lines;
    }

    private List<String> numericAxes() {
        List<String> out = new ArrayList<>();
        study.axes().forEach((k, vs) -> {
            if (vs.size() > 1 && vs.stream().allMatch(StudyOutput::isNumber)) {
                out.add(k);
            }
        });
        return out;
    }

    private static boolean isNumber(String s) {
        try {
            return Double.isFinite(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            return false;
        }
    }

    String html(List<String> metrics) {
        StringBuilder b = new StringBuilder();
        b.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>pvtlb study ").append(Html.escape(study.file()))
                .append("</title>\n<style>body{font-family:sans-serif;margin:2em}svg{margin:1em 1em 1em 0;"
                        + "border:1px solid #ccc}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px;"
                        + "text-align:right}</style></head><body>\n");
        b.append("<h1>").append(Html.escape(study.file())).append("</h1>\n<p>scenario ").append(Html.escape(study.scenario()))
                .append(", backend ").append(Html.escape(study.backend())).append(", ").append(rows.size()).append(" runs, seeds ")
                .append(Html.escape(study.seeds().toString())).append(", reps ").append(study.reps()).append("</p>\n");
        List<String> num = numericAxes();
        if (num.isEmpty()) {
            b.append("<p>No numeric axis with two or more values: no charts, only the table.</p>\n");
        }
        for (String m : metrics) {
            for (String axis : num) {
                b.append(chart(m, axis));
            }
        }
        b.append("<h2>Summary (mean over seeds)</h2>\n<table class='numbers'>\n");
        List<List<String>> lines = summary();
        for (int r = 0; r < lines.size(); r++) {
            String cell = r == 0 ? "th" : "td";
            b.append("<tr>");
            for (String c : lines.get(r)) {
                b.append('<').append(cell).append('>').append(Html.escape(c)).append("</").append(cell).append('>');
            }
            b.append("</tr>\n");
        }
        return b.append("</table>\n</body></html>\n").toString();
    }

    /** One line per combination of the other axes; each point is the mean over seeds (NaN where it has none). */
    private String chart(String metric, String axis) {
        List<String> xsText = new ArrayList<>(study.axes().get(axis));
        xsText.sort((a, c) -> Double.compare(Double.parseDouble(a), Double.parseDouble(c)));
        Map<String, Map<String, List<Map<String, Object>>>> groups = new LinkedHashMap<>();
        for (Map<String, Object> r : rows) {
            StringBuilder key = new StringBuilder();
            for (String a : study.axes().keySet()) {
                if (!a.equals(axis)) {
                    key.append(key.isEmpty() ? "" : " ").append(a).append('=').append(RunRows.text(r.get(a)));
                }
            }
            groups.computeIfAbsent(key.toString(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(RunRows.text(r.get(axis)), k -> new ArrayList<>()).add(r);
        }
        double[] x = xsText.stream().mapToDouble(Double::parseDouble).toArray();
        List<SvgChart.Series> series = new ArrayList<>();
        groups.forEach((name, byX) -> {
            double[] y = new double[x.length];
            for (int i = 0; i < x.length; i++) {
                List<Map<String, Object>> rs = byX.get(xsText.get(i));
                y[i] = rs == null ? Double.NaN : mean(rs, metric);
            }
            series.add(new SvgChart.Series(name.isEmpty() ? "all runs" : name, y, new double[x.length]));
        });
        String name = metric.substring(RunRows.METRIC.length());
        return SvgChart.lineChart(name + " vs " + axis, axis, name, x, series);
    }
}
