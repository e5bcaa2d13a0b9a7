package dev.pvtlb.study;

import dev.pvtlb.report.Csv;
import dev.pvtlb.report.Json;
import dev.pvtlb.run.RunReport;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The row of one run: its axis values and seed, every metric's mean, every counter, the
 * simulated steps and time, and the hazard verdict. Host timing is left out on purpose: a row
 * is a pure function of the study and the run, so a study gives the same rows wherever it ran.
 * Values are String, Long or Double (the column types of the Parquet output).
 */
public final class RunRows {
    public static final String METRIC = "metric.";
    public static final String COUNTER = "counter.";

    private RunRows() {}

    /** Runs one run of the study on this thread (a fresh guest per repetition) and returns its row. */
    public static LinkedHashMap<String, Object> run(Study study, StudyRun run) {
        return of(study, run, dev.pvtlb.run.Runner.run(study.scenario(run)));
    }

    public static LinkedHashMap<String, Object> of(Study study, StudyRun run, RunReport r) {
        LinkedHashMap<String, Object> row = new LinkedHashMap<>();
        row.put("run", (long) run.index());
        row.put("scenario", r.scenario());
        row.put("backend", r.backend());
        run.point().forEach((k, v) -> {
            if (!k.equals("backend")) {
                row.put(k, v);
            }
        });
        row.put("seed", run.seed());
        row.put("reps", (long) r.reps());
        row.put("fidelity", r.fidelity());
        r.metrics().forEach((k, s) -> row.put(METRIC + k, s.mean()));
        r.counters().forEach((k, v) -> row.put(COUNTER + k, v));
        row.put("sim.steps", r.steps());
        row.put("sim.simulated_s", r.simulatedS());
        row.put("hazards", (long) r.hazards().size());
        row.put("verdict", r.hazards().isEmpty() ? "SAFE" : r.hazards().get(0).hazard().kind().name());
        return row;
    }

    /** The columns of a set of rows: every key, in the order first seen going down the rows. */
    public static List<String> columns(List<? extends Map<String, Object>> rows) {
        LinkedHashSet<String> cols = new LinkedHashSet<>();
        rows.forEach(r -> cols.addAll(r.keySet()));
        return new ArrayList<>(cols);
    }

    /** A cell as text: doubles as the JSON reports print them, a missing value as empty. */
    public static String text(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            return Json.number(d);
        }
        return String.valueOf(v);
    }

    public static String csvHeader(List<String> columns) {
        List<String> cells = new ArrayList<>();
        columns.forEach(c -> cells.add(c));
        return Csv.line(cells);
    }

    public static String csvLine(List<String> columns, Map<String, Object> row) {
        List<String> cells = new ArrayList<>();
        for (String c : columns) {
            cells.add(text(row.get(c)));
        }
        return Csv.line(cells);
    }

    /** One JSON object on one line, keys in column order (a missing value is left out). */
    public static String jsonLine(List<String> columns, Map<String, Object> row) {
        StringBuilder b = new StringBuilder("{");
        boolean first = true;
        for (String c : columns) {
            if (!row.containsKey(c)) {
                continue;
            }
            if (!first) {
                b.append(',');
            }
            first = false;
            b.append(Json.quote(c));
            b.append(':');
            Object v = row.get(c);
            if (v instanceof String s) {
                b.append(Json.quote(s));
            } else {
                b.append(text(v).isEmpty() ? "null" : text(v));
            }
        }
        return b.append('}').toString();
    }
}
