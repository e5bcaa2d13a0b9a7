package dev.pvtlb.itests;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the JSON that {@code pvtlb run --json} writes, into {@link LinkedHashMap} (key order
 * kept), {@link List}, {@link String}, {@link Number} (kept as written), {@link Boolean} and
 * {@code null}.
 *
 * <p>Why not a library: the tests only need to read one report format and compare two reports
 * as written; a hand-rolled reader keeps numbers as their exact text (so "identical JSON" means
 * identical digits, not equal doubles) and adds no dependency to keep in step with the build.
 */
final class JsonReader {
    /** A JSON number as its literal text: compared and printed exactly as the writer wrote it. */
    record Number(String text) {
        long asLong() {
            return Long.parseLong(text);
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private final String s;
    private int i;

    private JsonReader(String s) {
        this.s = s;
    }

    static Object parse(String text) {
        JsonReader r = new JsonReader(text);
        Object v = r.value();
        r.blank();
        if (r.i != text.length()) {
            throw r.error("trailing text");
        }
        return v;
    }

    private Object value() {
        blank();
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        char c = s.charAt(i);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        Map<String, Object> m = new LinkedHashMap<>();
        i++;
        blank();
        if (peek('}')) {
            i++;
            return m;
        }
        while (true) {
            blank();
            String k = string();
            blank();
            expect(':');
            if (m.put(k, value()) != null) {
                throw error("duplicate key '" + k + "'");
            }
            blank();
            if (peek(',')) {
                i++;
            } else {
                expect('}');
                return m;
            }
        }
    }

    private List<Object> array() {
        List<Object> l = new ArrayList<>();
        i++;
        blank();
        if (peek(']')) {
            i++;
            return Collections.unmodifiableList(l);
        }
        while (true) {
            l.add(value());
            blank();
            if (peek(',')) {
                i++;
            } else {
                expect(']');
                return Collections.unmodifiableList(l);
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            if (i >= s.length()) {
                throw error("unterminated string");
            }
            char c = s.charAt(i++);
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private Number number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        if (start == i) {
            throw error("unexpected character '" + s.charAt(i) + "'");
        }
        return new Number(s.substring(start, i));
    }

    private Object literal(String word, Object v) {
        if (!s.startsWith(word, i)) {
            throw error("expected " + word);
        }
        i += word.length();
        return v;
    }

    private void blank() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private boolean peek(char c) {
        return i < s.length() && s.charAt(i) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("expected '" + c + "'");
        }
        i++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("JSON: " + what + " at offset " + i);
    }
}
