package dev.pvtlb.validation;

import dev.pvtlb.report.Figures;
import java.util.Locale;

/** How a validated figure reads: a change in percent, a ratio, or nanoseconds. */
public enum FigureUnit {
    PERCENT("%"), RATIO("x"), NS("ns");

    final String symbol;

    FigureUnit(String symbol) {
        this.symbol = symbol;
    }

    /** The unit as the JSON documents name it: {@code %}, {@code x} or {@code ns}. */
    public String symbol() {
        return symbol;
    }

    /** A figure in this unit for people: {@code +1.26%}, {@code x0.24}, {@code 1,234 ns}; n/a when it could not be computed. */
    public String format(double x) {
        if (!Double.isFinite(x)) {
            return "n/a";
        }
        return switch (this) {
            case PERCENT -> String.format(Locale.ROOT, "%+.2f%%", x);
            case RATIO -> String.format(Locale.ROOT, "x%.2f", x);
            case NS -> Figures.num(x) + " ns";
        };
    }

    /** A spread in this unit, e.g. {@code +-0.52%}, {@code +-0.03}, {@code +-120 ns}. */
    public String formatSpread(double x) {
        if (!Double.isFinite(x)) {
            return "n/a";
        }
        return switch (this) {
            case PERCENT -> String.format(Locale.ROOT, "+-%.2f%%", x);
            case RATIO -> String.format(Locale.ROOT, "+-%.2f", x);
            case NS -> "+-" + Figures.num(x) + " ns";
        };
    }

    /** A signed difference of two figures in this unit, e.g. {@code +0.52%} (points), {@code -0.03}, {@code +120 ns}. */
    public String formatDifference(double x) {
        if (!Double.isFinite(x)) {
            return "n/a";
        }
        return switch (this) {
            case PERCENT -> String.format(Locale.ROOT, "%+.2f%%", x);
            case RATIO -> String.format(Locale.ROOT, "%+.3f", x);
            case NS -> (x < 0 ? "-" : "+") + Figures.num(Math.abs(x)) + " ns";
        };
    }
}
