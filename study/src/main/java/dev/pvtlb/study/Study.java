package dev.pvtlb.study;

import dev.pvtlb.config.Fidelity;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.report.OneLine;
import dev.pvtlb.run.BoundedYaml;
import dev.pvtlb.model.InputFile;
import dev.pvtlb.run.Scenario;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A study file: either a grid of runs (a base scenario, axes to vary, seeds, repetitions, the
 * metrics to tabulate) or an explore campaign. Everything is checked when the file is read, by
 * building every run's {@link Scenario}, so a typo fails before the first run starts. The
 * format is documented in docs/studies.md.
 */
public record Study(String file, String scenario, String backend, Map<String, String> sets,
                    Map<String, List<String>> axes, List<Long> seeds, int reps, List<String> metrics, int maxRuns,
                    Campaign campaign) implements Serializable {
    /** Default bound on the runs of one grid, so a typo (seeds: 1..100000) cannot run for days. */
    public static final int DEFAULT_MAX_RUNS = 10_000;

    private static final Set<String> TOP_KEYS = Set.of("scenario", "backend", "set", "vary", "seeds", "reps", "metrics",
            "maxRuns", "explore");

    public Study {
        sets = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(sets));
        axes = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(axes));
        seeds = List.copyOf(seeds);
        metrics = List.copyOf(metrics);
    }

    public boolean isCampaign() {
        return campaign != null;
    }

    /** Largest study file read (a grid of a few axes needs a few hundred bytes). */
    public static final int MAX_BYTES = 256 * 1024;

    /**
     * Reads and checks a study file through the same bounded reader as scenario files (size,
     * UTF-8, nesting depth, no collection aliases); any problem is a one-line {@link ModelException}
     * naming the file. {@code maxRunsOverride}: the command line's --max-runs, or null.
     */
    public static Study load(Path path, Integer maxRunsOverride) {
        String text = InputFile.read(path, "study file", MAX_BYTES);
        return parse(path.getFileName() == null ? path.toString() : path.getFileName().toString(), text, maxRunsOverride);
    }

    /** {@code maxRunsOverride}: the command line's --max-runs, or null for the file's (or the default). */
    public static Study parse(String file, String text, Integer maxRunsOverride) {
        Object doc = BoundedYaml.load(file, text, MAX_BYTES);
        if (!(doc instanceof Map<?, ?> top)) {
            throw new ModelException(file + ": a study file is a YAML mapping (scenario:, vary:, seeds: ... or explore:)");
        }
        for (Object k : top.keySet()) {
            if (!TOP_KEYS.contains(String.valueOf(k))) {
                throw new ModelException(file + ": unknown key '" + k + "' (known: scenario, backend, set, vary, seeds, reps, "
                        + "metrics, maxRuns, explore)");
            }
        }
        int maxRuns = maxRunsOverride != null ? maxRunsOverride
                : top.containsKey("maxRuns") ? (int) integer(file, "maxRuns", top.get("maxRuns"), 1, Integer.MAX_VALUE)
                : DEFAULT_MAX_RUNS;
        if (top.containsKey("explore")) {
            if (top.containsKey("vary") || top.containsKey("scenario")) {
                throw new ModelException(file + ": a study is either a grid (scenario:, vary:) or a campaign (explore:), not both");
            }
            Campaign c = Campaign.parse(file, top.get("explore"));
            return new Study(file, c.scenario(), c.backend(), c.sets(), Map.of(), List.of(), 1, List.of(), maxRuns, c);
        }
        Object scen = top.get("scenario");
        if (!(scen instanceof String name) || name.isBlank()) {
            throw new ModelException(file + ": 'scenario' must name a built-in scenario (see 'pvtlb scenarios')");
        }
        String backend = top.containsKey("backend") ? scalar(file, "backend", top.get("backend")) : "native";
        Map<String, String> sets = stringMap(file, "set", top.get("set"));
        Map<String, List<String>> axes = new LinkedHashMap<>();
        Object vary = top.get("vary");
        if (vary != null) {
            if (!(vary instanceof Map<?, ?> vm)) {
                throw new ModelException(file + ": 'vary' must map each axis key to a list of values");
            }
            for (var e : vm.entrySet()) {
                String key = String.valueOf(e.getKey());
                if (!(e.getValue() instanceof List<?> vals)) {
                    throw new ModelException(file + ": vary." + key + " must be a list of values, e.g. [1, 2]");
                }
                if (vals.isEmpty()) {
                    throw new ModelException(file + ": vary." + key + " is empty: the grid has no runs");
                }
                List<String> vs = new ArrayList<>();
                for (Object v : vals) {
                    String s = scalar(file, "vary." + key, v);
                    if (vs.contains(s)) {
                        throw new ModelException(file + ": vary." + key + " lists '" + s + "' twice");
                    }
                    vs.add(s);
                }
                axes.put(key, List.copyOf(vs));
            }
        }
        List<Long> seeds = new ArrayList<>();
        Object sd = top.get("seeds");
        if (sd == null) {
            seeds.add(1L);
        } else if (sd instanceof List<?> sl) {
            if (sl.isEmpty()) {
                throw new ModelException(file + ": seeds is empty: the grid has no runs");
            }
            for (Object o : sl) {
                long s = integer(file, "seeds", o, Long.MIN_VALUE, Long.MAX_VALUE);
                if (seeds.contains(s)) {
                    throw new ModelException(file + ": seeds lists " + s + " twice");
                }
                seeds.add(s);
            }
        } else {
            throw new ModelException(file + ": seeds must be a list of integers, e.g. [1, 2, 3]");
        }
        int reps = top.containsKey("reps") ? (int) integer(file, "reps", top.get("reps"), 1, Scenario.MAX_REPS) : 1;
        List<String> metrics = new ArrayList<>();
        Object ms = top.get("metrics");
        if (ms != null) {
            if (!(ms instanceof List<?> ml) || ml.isEmpty()) {
                throw new ModelException(file + ": metrics must be a non-empty list of metric names");
            }
            for (Object o : ml) {
                metrics.add(scalar(file, "metrics", o));
            }
        }
        Study st = new Study(file, name, backend, sets, axes, seeds, reps, metrics, maxRuns, null);
        st.check();
        return st;
    }

    /** Number of runs of the grid: the product of the axes' sizes times the seeds (overflow-safe). */
    public long runCount() {
        long n = seeds.size();
        for (List<String> vs : axes.values()) {
            n = Math.multiplyExact(n, vs.size());
        }
        return n;
    }

    /**
     * The runs in grid order: the first axis varies slowest, the seeds fastest. This order is
     * the row order of every output, whatever ran where and when.
     */
    public List<StudyRun> runs() {
        List<String> keys = new ArrayList<>(axes.keySet());
        List<StudyRun> out = new ArrayList<>();
        int total = (int) runCount();
        int[] idx = new int[keys.size()];
        for (int i = 0; i < total / seeds.size(); i++) {
            Map<String, String> point = new LinkedHashMap<>();
            for (int a = 0; a < keys.size(); a++) {
                point.put(keys.get(a), axes.get(keys.get(a)).get(idx[a]));
            }
            for (long seed : seeds) {
                out.add(new StudyRun(out.size(), point, seed));
            }
            for (int a = keys.size() - 1; a >= 0; a--) {
                if (++idx[a] < axes.get(keys.get(a)).size()) {
                    break;
                }
                idx[a] = 0;
            }
        }
        return out;
    }

    /** The scenario of one run: base, then the base settings, then the run's axis values. */
    public Scenario scenario(StudyRun run) {
        // A sweep reports figures: the fast level unless its settings ask for exact.
        Scenario s = Scenario.of(scenario).seed(run.seed()).backend(backend).defaultFidelity(Fidelity.FAST);
        for (var e : sets.entrySet()) {
            s.set(e.getKey(), e.getValue());
        }
        for (var e : run.point().entrySet()) {
            if (e.getKey().equals("backend")) {
                s.backend(e.getValue());
            } else {
                s.set(e.getKey(), e.getValue());
            }
        }
        return s.reps(reps);
    }

    private void check() {
        long n;
        try {
            n = runCount();
        } catch (ArithmeticException e) {
            n = Long.MAX_VALUE;
        }
        if (n > maxRuns) {
            throw new ModelException(file + ": the grid has " + (n == Long.MAX_VALUE ? "too many" : n) + " runs, more than "
                    + "maxRuns " + maxRuns + " (raise maxRuns in the file or --max-runs if you mean it)");
        }
        try {
            Scenario.of(scenario);
        } catch (ModelException e) {
            throw new ModelException(file + ": scenario: " + e.getMessage());
        }
        check("backend", () -> Scenario.of(scenario).backend(backend));
        for (var e : sets.entrySet()) {
            check("set." + e.getKey(), () -> Scenario.of(scenario).set(e.getKey(), e.getValue()));
        }
        for (var e : axes.entrySet()) {
            for (String v : e.getValue()) {
                String key = e.getKey();
                check("vary." + key, () -> {
                    Scenario s = Scenario.of(scenario);
                    if (key.equals("backend")) {
                        s.backend(v);
                    } else if (key.equals("seed") || key.equals("reps")) {
                        throw new ModelException("vary '" + key + "' with the top-level '" + key + "s'/'reps' keys instead");
                    } else {
                        s.set(key, v);
                    }
                });
            }
        }
        // Every run as a whole (a knob may clash with a backend axis only in combination), down to
        // its guest configuration, which reads a profile file: a missing one fails here, before
        // the output directory is made, not in the first run.
        for (StudyRun r : runs()) {
            check("run " + r.index() + " " + r.point(), () -> scenario(r).guestConfig(0));
        }
    }

    private void check(String where, Runnable r) {
        try {
            r.run();
        } catch (ModelException e) {
            throw new ModelException(file + ": " + where + ": " + OneLine.of(e.getMessage()));
        }
    }

    static String scalar(String file, String key, Object v) {
        if (v == null || v instanceof Map || v instanceof List) {
            throw new ModelException(file + ": " + key + " must be a single value, got " + (v == null ? "nothing" : v));
        }
        return String.valueOf(v);
    }

    static long integer(String file, String key, Object v, long min, long max) {
        long n;
        if (v instanceof Integer || v instanceof Long) {
            n = ((Number) v).longValue();
        } else if (v instanceof java.math.BigInteger) {
            throw new ModelException(file + ": " + key + " is out of range: " + v);
        } else {
            throw new ModelException(file + ": " + key + " must be an integer, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new ModelException(file + ": " + key + " must be between " + min + " and " + max + ", got " + n);
        }
        return n;
    }

    static Map<String, String> stringMap(String file, String key, Object v) {
        Map<String, String> out = new LinkedHashMap<>();
        if (v == null) {
            return out;
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw new ModelException(file + ": '" + key + "' must map setting keys to values, e.g. {ops: 3, vcpus: 4}");
        }
        for (var e : m.entrySet()) {
            out.put(String.valueOf(e.getKey()), scalar(file, key + "." + e.getKey(), e.getValue()));
        }
        return out;
    }
}
