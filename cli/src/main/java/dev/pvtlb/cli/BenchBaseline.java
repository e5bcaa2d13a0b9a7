package dev.pvtlb.cli;

import dev.pvtlb.model.InputFile;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.run.BoundedYaml;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of an earlier {@code pvtlb bench --json F}, for {@code bench --baseline}: each
 * entry's real-time factor ({@code rtf}) and schedules per second ({@code schedules_per_s}) by
 * name. {@code --baseline a44539b} names the built-in file of commit a44539b's results measured
 * on the development machine ({@link #BUILT_IN}); any other value is a path. A file that is not
 * what bench writes is refused with one line ({@link ModelException}, exit 2) before anything runs.
 */
record BenchBaseline(String label, Map<String, Figures> entries) {
    /** The built-in baselines: a name, and the resource holding its results next to this class. */
    static final Map<String, String> BUILT_IN = Map.of("a44539b", "bench-baseline-a44539b.json");

    /** How the key of an entry's fast row ends. */
    private static final String FAST = "@fast";

    /** A results file is a few KiB; this bounds what a wrong path costs. */
    static final int MAX_BYTES = 1 << 20;

    /** What bench --json holds of one entry, as far as a comparison needs it. */
    record Figures(double rtf, double schedulesPerS) { }

    BenchBaseline {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    /** The baseline {@code spec} names: a built-in one's name, else a path to a bench --json file. */
    static BenchBaseline load(String spec) {
        String resource = BUILT_IN.get(spec);
        if (resource == null) {
            String text;
            try {
                text = InputFile.read(Path.of(spec), "bench results file (pvtlb bench --json)", MAX_BYTES);
            } catch (InvalidPathException e) {
                throw new ModelException("--baseline " + spec + ": not a path: " + e.getReason());
            } catch (ModelException e) {
                throw new ModelException("--baseline " + e.getMessage());
            }
            return parse("--baseline " + spec, text);
        }
        try (InputStream in = BenchBaseline.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the built-in baseline " + resource + " is missing from the jar");
            }
            return parse("--baseline " + spec, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read the built-in baseline " + resource + ": " + e.getMessage(), e);
        }
    }

    /**
     * Reads {@code text}, a bench --json file ({@code label} names it in errors): an object whose
     * {@code entries} is a list of objects, each with a unique string {@code name} and the numbers
     * {@code rtf} and {@code schedules_per_s} (zero or more). Other keys are ignored.
     */
    static BenchBaseline parse(String label, String text) {
        String t = text.strip();
        if (!t.startsWith("{")) {
            throw new ModelException(label + ": not JSON (a pvtlb bench --json file is a JSON object)");
        }
        Object root;
        try {
            // JSON is YAML 1.2's flow style: the one bounded reader of the files pvtlb is given.
            root = BoundedYaml.load(label, text, MAX_BYTES);
        } catch (ModelException e) {
            throw new ModelException(e.getMessage().replace("not valid YAML", "not valid JSON"));
        }
        if (!(root instanceof Map<?, ?> m) || !(m.get("entries") instanceof List<?> list)) {
            throw shape(label, "no list 'entries'");
        }
        Map<String, Figures> entries = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            if (!(list.get(i) instanceof Map<?, ?> e)) {
                throw shape(label, "entries[" + i + "] is not an object");
            }
            if (!(e.get("name") instanceof String name)) {
                throw shape(label, "entries[" + i + "] has no string 'name'");
            }
            Figures f = new Figures(figure(label, i, e, "rtf"), figure(label, i, e, "schedules_per_s"));
            // An entry at the fast level is its own; one without a level (before there were two) is exact.
            boolean fast = "fast".equals(e.get("fidelity"));
            if (entries.put(fast ? name + FAST : name, f) != null) {
                throw shape(label, "entries[" + i + "]: a second entry named '" + name + "'" + (fast ? " at fidelity fast" : ""));
            }
        }
        return new BenchBaseline(label, entries);
    }

    private static double figure(String label, int i, Map<?, ?> entry, String key) {
        if (!(entry.get(key) instanceof Number n) || !Double.isFinite(n.doubleValue()) || n.doubleValue() < 0) {
            throw shape(label, "entries[" + i + "] has no number '" + key + "' (zero or more)");
        }
        return n.doubleValue();
    }

    private static ModelException shape(String label, String why) {
        return new ModelException(label + ": not a pvtlb bench --json file: " + why);
    }

    /**
     * The current figure over the baseline's for {@code entry}: its real-time factor for a run
     * entry ({@code explorer} false), its schedules per second for an explorer entry; null when
     * the baseline has no such entry or its figure is zero (no ratio to give).
     */
    Double ratio(String entry, boolean explorer, double current) {
        return ratio(entry, false, explorer, current);
    }

    /**
     * As {@link #ratio(String, boolean, double)} for a row at the fast level ({@code fast}): against
     * the baseline's fast row of that entry, else its exact one (a baseline from before the levels).
     */
    Double ratio(String entry, boolean fast, boolean explorer, double current) {
        Figures f = fast && entries.containsKey(entry + FAST) ? entries.get(entry + FAST) : entries.get(entry);
        if (f == null) {
            return null;
        }
        double base = explorer ? f.schedulesPerS() : f.rtf();
        return base > 0 ? current / base : null;
    }
}
