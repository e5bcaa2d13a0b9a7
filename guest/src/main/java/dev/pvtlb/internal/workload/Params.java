package dev.pvtlb.internal.workload;

import dev.pvtlb.model.ModelException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/** A workload's parameter values, defaults filled in, checked and typed on read. */
public final class Params {
    private final String workload;
    private final Map<String, String> values;

    public Params(Workload w, Map<String, String> settings) {
        this.workload = w.name();
        this.values = new TreeMap<>(w.parameters());
        for (var e : settings.entrySet()) {
            if (!values.containsKey(e.getKey())) {
                throw new ModelException("workload " + workload + " has no parameter '" + e.getKey()
                        + "' (parameters: " + String.join(", ", values.keySet()) + ")");
            }
            values.put(e.getKey(), e.getValue());
        }
    }

    /**
     * The values in name order. Not Map.copyOf: its iteration order is salted per JVM, so the
     * report's "params" came out in a different order in each process (found by the container tests).
     */
    public Map<String, String> values() {
        return Collections.unmodifiableMap(values);
    }

    /** An integer parameter within [min, max]. */
    public int integer(String name, int min, int max) {
        String v = values.get(name);
        long n;
        try {
            n = Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new ModelException(workload + ": parameter " + name + " must be an integer, got '" + v + "'");
        }
        if (n < min || n > max) {
            throw new ModelException(workload + ": parameter " + name + " must be between " + min + " and " + max + ", got " + n);
        }
        return (int) n;
    }

    /**
     * A parameter that is one of {@code words} or an integer (then read with {@link #integer}):
     * its value, stripped. {@code wordsText} names the words in the error.
     */
    public String wordOrInteger(String name, String wordsText, String... words) {
        String v = values.get(name).strip();
        if (!java.util.List.of(words).contains(v) && !v.matches("-?[0-9]+")) {
            throw new ModelException(workload + ": parameter " + name + " must be " + wordsText + " or an integer, got '" + v + "'");
        }
        return v;
    }

    /** A true/false parameter. */
    public boolean bool(String name) {
        String v = values.get(name).strip();
        if (!v.equals("true") && !v.equals("false")) {
            throw new ModelException(workload + ": parameter " + name + " must be true or false, got '" + v + "'");
        }
        return v.equals("true");
    }
}
