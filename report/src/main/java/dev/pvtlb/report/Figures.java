package dev.pvtlb.report;

import java.util.Locale;

/**
 * Numbers for people (tables, chart labels): about four significant digits, never scientific for
 * everyday sizes. Files read by programs use {@link Json#number} instead.
 */
public final class Figures {
    private Figures() {}

    public static String num(double x) {
        double a = Math.abs(x);
        if (x == 0 || Double.isNaN(x) || Double.isInfinite(x)) {
            return x == 0 ? "0" : String.valueOf(x);
        }
        if (a >= 1000 || x == Math.rint(x)) {
            return String.format(Locale.ROOT, "%.0f", x);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.1f", x);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", x);
        }
        if (a >= 0.001) {
            return String.format(Locale.ROOT, "%.4f", x);
        }
        return String.format(Locale.ROOT, "%.3e", x);
    }

    /** Change of {@code x} against {@code base} in percent, signed; "n/a" when base is 0. */
    public static String pct(double x, double base) {
        if (base == 0) {
            return x == 0 ? "+0.0%" : "n/a";
        }
        return String.format(Locale.ROOT, "%+.1f%%", (x - base) / Math.abs(base) * 100);
    }
}
