package dev.pvtlb.itests;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A {@code pvtlb run --json} report as the container wrote it. */
final class Report {
    /** The one part of a report that measures the host, not the model: it differs run to run. */
    static final String HOST_TIMING = "host_timing";

    private final Map<String, Object> root;

    private Report(Map<String, Object> root) {
        this.root = root;
    }

    static Report parse(String json) {
        if (!(JsonReader.parse(json) instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException("a report is a JSON object");
        }
        Map<String, Object> root = new LinkedHashMap<>();
        m.forEach((k, v) -> root.put((String) k, v));
        return new Report(root);
    }

    String text(String key) {
        return (String) require(root, key);
    }

    long number(String key) {
        return ((JsonReader.Number) require(root, key)).asLong();
    }

    /** A counter from the report's {@code counters} object; a missing counter is an error. */
    long counter(String name) {
        return ((JsonReader.Number) require(section("counters"), name)).asLong();
    }

    /** The report's hazards list (empty for a safe run). */
    List<?> hazards() {
        return (List<?>) require(root, "hazards");
    }

    Map<String, Object> section(String key) {
        Map<String, Object> m = new LinkedHashMap<>();
        ((Map<?, ?>) require(root, key)).forEach((k, v) -> m.put((String) k, v));
        return m;
    }

    /**
     * The report in a canonical text (two-space indent, keys in written order, numbers as
     * written) without {@link #HOST_TIMING}: two runs of one scenario and seed must give the
     * same text. Kept as text so that a failure shows a readable diff.
     */
    String withoutHostTiming() {
        Map<String, Object> m = new LinkedHashMap<>(root);
        m.remove(HOST_TIMING);
        StringBuilder b = new StringBuilder();
        write(b, m, 0);
        return b.append('\n').toString();
    }

    /**
     * The first differing line of two report texts and a few lines after it, side by side: the
     * console shows only the message, not the expected/actual pair an IDE would diff.
     */
    static String firstDifference(String a, String b) {
        List<String> x = a.lines().toList();
        List<String> y = b.lines().toList();
        int i = 0;
        while (i < x.size() && i < y.size() && x.get(i).equals(y.get(i))) {
            i++;
        }
        StringBuilder s = new StringBuilder("first difference at line " + (i + 1) + " (first | second):\n");
        for (int k = i; k < i + 6 && (k < x.size() || k < y.size()); k++) {
            s.append(k < x.size() ? x.get(k) : "(end)").append("  |  ").append(k < y.size() ? y.get(k) : "(end)").append('\n');
        }
        return s.toString();
    }

    private static Object require(Map<String, Object> m, String key) {
        Object v = m.get(key);
        if (v == null) {
            throw new IllegalArgumentException("report has no '" + key + "' (keys: " + m.keySet() + ")");
        }
        return v;
    }

    private static void write(StringBuilder b, Object v, int indent) {
        switch (v) {
            case null -> b.append("null");
            case Map<?, ?> m -> {
                b.append('{');
                String sep = "\n";
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    b.append(sep).append("  ".repeat(indent + 1));
                    quote(b, (String) e.getKey());
                    b.append(": ");
                    write(b, e.getValue(), indent + 1);
                    sep = ",\n";
                }
                b.append(m.isEmpty() ? "" : "\n" + "  ".repeat(indent)).append('}');
            }
            case List<?> l -> {
                b.append('[');
                String sep = "\n";
                for (Object o : l) {
                    b.append(sep).append("  ".repeat(indent + 1));
                    write(b, o, indent + 1);
                    sep = ",\n";
                }
                b.append(l.isEmpty() ? "" : "\n" + "  ".repeat(indent)).append(']');
            }
            case String s -> quote(b, s);
            default -> b.append(v);
        }
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
