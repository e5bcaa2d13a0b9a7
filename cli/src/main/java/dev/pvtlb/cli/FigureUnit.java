package dev.pvtlb.cli;

import dev.pvtlb.report.Figures;
import java.util.Locale;

/** How a validated figure reads: a change in percent, a ratio, or nanoseconds. */
enum FigureUnit {
    PERCENT("%"), RATIO("x"), NS("ns");

    final String symbol;

    FigureUnit(String symbol) {
        this.symbol = symbol;
    }

    String format(double x) {
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
    String formatSpread(double x) {
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
    String formatDifference(double x) {
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
