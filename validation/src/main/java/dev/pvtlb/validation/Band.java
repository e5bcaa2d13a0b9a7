package dev.pvtlb.validation;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where an emulated figure must fall for its experiment to pass, as {@code validation.md} states
 * it. Each test is written the way the acceptance check (10-cost-fidelity) writes it, closed or
 * open ends alike, so both give one verdict on one figure.
 */
public sealed interface Band {
    boolean contains(double x);

    /** For people: the band in the figure's unit. */
    String describe(FigureUnit unit);

    /** For programs: the band's limits. */
    Map<String, Object> toMap();

    /** The lowest value the band admits, or null where it is open below. */
    Double lowest();

    /** The highest value the band admits, or null where it is open above. */
    Double highest();

    /**
     * How far a figure may move when its measurement window doubles and still be steady: a
     * quarter of the band's width. A band open above has no width; there the width is the
     * distance from the published figure to the band's one end, the margin the source's own
     * result has.
     */
    double steadyTolerance(double published);

    /** {@code low <= x <= high} (an infinite end is no limit). */
    static Band closed(double low, double high) {
        return new Interval(low, high, false);
    }

    /** {@code low < x < high}. */
    static Band open(double low, double high) {
        return new Interval(low, high, true);
    }

    static Band atLeast(double low) {
        return new Interval(low, Double.POSITIVE_INFINITY, false);
    }

    /** {@code |x / reference - 1| <= fraction}: an absolute figure within a relative margin. */
    static Band around(double reference, double fraction) {
        return new Around(reference, fraction);
    }

    record Interval(double low, double high, boolean open) implements Band {
        @Override
        public boolean contains(double x) {
            return open ? low < x && x < high : low <= x && x <= high;
        }

        @Override
        public String describe(FigureUnit unit) {
            if (high == Double.POSITIVE_INFINITY) {
                return (open ? "> " : ">= ") + unit.format(low);
            }
            return (open ? "(" : "[") + unit.format(low) + ", " + unit.format(high) + (open ? ")" : "]");
        }

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("low", low);
            m.put("high", high == Double.POSITIVE_INFINITY ? null : high);
            m.put("ends", open ? "exclusive" : "inclusive");
            return m;
        }

        @Override
        public Double lowest() {
            return low == Double.NEGATIVE_INFINITY ? null : low;
        }

        @Override
        public double steadyTolerance(double published) {
            return (high == Double.POSITIVE_INFINITY ? Math.abs(published - low) : high - low) / 4;
        }

        @Override
        public Double highest() {
            return high == Double.POSITIVE_INFINITY ? null : high;
        }
    }

    record Around(double reference, double fraction) implements Band {
        @Override
        public boolean contains(double x) {
            return Math.abs(x / reference - 1) <= fraction;
        }

        @Override
        public String describe(FigureUnit unit) {
            return unit.format(reference) + " +-" + Math.round(fraction * 100) + "%";
        }

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("around", reference);
            m.put("within_fraction", fraction);
            return m;
        }

        @Override
        public Double lowest() {
            return reference * (1 - fraction);
        }

        @Override
        public double steadyTolerance(double published) {
            return 2 * Math.abs(reference) * fraction / 4;
        }

        @Override
        public Double highest() {
            return reference * (1 + fraction);
        }
    }
}
