package dev.pvtlb.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small JSON writer for reports: maps keep their insertion order and numbers print the same
 * way on every run, so two runs with one seed give byte-identical files.
 */
public final class Json {
    private Json() {}

    public static String write(Object value) {
        StringBuilder b = new StringBuilder();
        write(b, value, 0);
        return b.append('\n').toString();
    }

    private static void write(StringBuilder b, Object v, int indent) {
        if (v == null) {
            b.append("null");
        } else if (v instanceof String s) {
            string(b, s);
        } else if (v instanceof Boolean bool) {
            b.append(bool);
        } else if (v instanceof Double || v instanceof Float) {
            b.append(number(((Number) v).doubleValue()));
        } else if (v instanceof Number n) {
            b.append(n.longValue());
        } else if (v instanceof Map<?, ?> m) {
            if (m.isEmpty()) {
                b.append("{}");
                return;
            }
            b.append("{\n");
            int i = 0;
            for (var e : m.entrySet()) {
                pad(b, indent + 1);
                string(b, String.valueOf(e.getKey()));
                b.append(": ");
                write(b, e.getValue(), indent + 1);
                b.append(++i < m.size() ? ",\n" : "\n");
            }
            pad(b, indent);
            b.append('}');
        } else if (v instanceof List<?> l) {
            if (l.isEmpty()) {
                b.append("[]");
                return;
            }
            b.append("[\n");
            for (int i = 0; i < l.size(); i++) {
                pad(b, indent + 1);
                write(b, l.get(i), indent + 1);
                b.append(i + 1 < l.size() ? ",\n" : "\n");
            }
            pad(b, indent);
            b.append(']');
        } else {
            string(b, v.toString());
        }
    }

    /** Up to 6 decimals, trailing zeros dropped; non-finite values as null. */
    public static String number(double d) {
        if (!Double.isFinite(d)) {
            return "null";
        }
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString((long) d);
        }
        String s = String.format(Locale.ROOT, "%.6f", d);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    private static void pad(StringBuilder b, int indent) {
        b.append("  ".repeat(indent));
    }

    /** {@code s} as a JSON string literal, quotes included. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2);
        string(b, s);
        return b.toString();
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
