package dev.pvtlb.validation;

import java.util.ArrayList;
import java.util.List;

/**
 * An experiment's emulated figures set against its published ones. The experiment passes when
 * every figure but its details is inside its band; a figure that could not be computed (NaN, say a counter of
 * zero as a divisor) is outside every band.
 */
public record ValidationResult(ValidationExperiment experiment, List<Figure> figures, double[] curve, MeasurementWindow window) {
    /** A result whose runs' windows are not known (figures given, not run). */
    ValidationResult(ValidationExperiment experiment, List<Figure> figures, double[] curve) {
        this(experiment, figures, curve, null);
    }

    /**
     * How many standard errors either side of a figure must lie wholly inside its band, or wholly
     * outside it, for the repetitions to resolve its verdict (about 95% of a normal spread).
     */
    public static final double RESOLVING_ERRORS = 2;

    /** Marks a verdict the repetitions do not resolve, in the text, Markdown and HTML tables. */
    public static final String UNRESOLVED_MARK = "*";

    /** The legend of {@link #UNRESOLVED_MARK}. */
    public static final String UNRESOLVED_LEGEND = UNRESOLVED_MARK + " not resolved: an end of the band lies within "
            + (int) RESOLVING_ERRORS + " standard errors of the figure, so more repetitions could turn the verdict";

    /** One figure's outcome, with one standard error from the runs' repetitions (RunResults.standardError()). */
    public record Figure(ValidationFigure figure, double emulated, double standardError) {
        /** Inside its band (a figure that could not be computed is outside every band). */
        public boolean pass() {
            return !Double.isNaN(emulated) && figure.band().contains(emulated);
        }

        /**
         * Whether the repetitions resolve the verdict: the figure give or take
         * {@link #RESOLVING_ERRORS} standard errors is wholly inside its band or wholly outside it.
         * A figure without a spread (counters, a single repetition) or that could not be computed
         * is taken as resolved: nothing measured says otherwise.
         */
        public boolean resolved() {
            if (!Double.isFinite(emulated) || !Double.isFinite(standardError) || standardError <= 0) {
                return true;
            }
            Band band = figure.band();
            double low = band.lowest() == null ? Double.NEGATIVE_INFINITY : band.lowest();
            double high = band.highest() == null ? Double.POSITIVE_INFINITY : band.highest();
            double from = emulated - RESOLVING_ERRORS * standardError;
            double to = emulated + RESOLVING_ERRORS * standardError;
            boolean inside = Math.min(low, high) <= from && to <= Math.max(low, high);
            boolean outside = to < Math.min(low, high) || from > Math.max(low, high);
            return inside || outside;
        }

        /** pass or fail; in parentheses for a detail figure, which the experiment's verdict leaves out. */
        public String verdict() {
            String v = pass() ? "pass" : "fail";
            return figure.detail() ? "(" + v + ")" : v;
        }

        /** {@link #verdict()}, marked with {@link #UNRESOLVED_MARK} when the repetitions do not resolve it. */
        public String markedVerdict() {
            return verdict() + (resolved() ? "" : UNRESOLVED_MARK);
        }
    }

    static ValidationResult of(ValidationExperiment e, RunResults runs) {
        List<Figure> figures = new ArrayList<>();
        for (ValidationFigure f : e.figures()) {
            figures.add(new Figure(f, f.emulated().applyAsDouble(runs), runs.standardError(f.emulated())));
        }
        return new ValidationResult(e, List.copyOf(figures), e.curve() == null ? null : e.curve().emulatedAll(runs),
                MeasurementWindow.of(e, runs));
    }

    /** Every figure the verdict counts is inside its band. */
    public boolean pass() {
        return figures.stream().allMatch(f -> f.figure().detail() || f.pass());
    }

    /** {@code pass} or {@code fail}. */
    public String verdict() {
        return pass() ? "pass" : "fail";
    }

    /** Whether the repetitions resolve every figure the verdict counts ({@link Figure#resolved()}). */
    public boolean resolved() {
        return figures.stream().allMatch(f -> f.figure().detail() || f.resolved());
    }

    /** {@link #verdict()}, marked with {@link #UNRESOLVED_MARK} when the repetitions do not resolve it. */
    public String markedVerdict() {
        return verdict() + (resolved() ? "" : UNRESOLVED_MARK);
    }

    /** Whether any figure, details included, is not resolved: the tables then carry the legend. */
    static boolean anyUnresolved(List<ValidationResult> results) {
        return results.stream().flatMap(r -> r.figures().stream()).anyMatch(f -> !f.resolved());
    }
}
