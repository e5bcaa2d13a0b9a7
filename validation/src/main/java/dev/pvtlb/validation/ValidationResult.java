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

    /** One figure's outcome, with one standard error from the runs' repetitions (RunResults.standardError()). */
    public record Figure(ValidationFigure figure, double emulated, double standardError) {
        /** Inside its band (a figure that could not be computed is outside every band). */
        public boolean pass() {
            return !Double.isNaN(emulated) && figure.band().contains(emulated);
        }

        /** pass or fail; in parentheses for a detail figure, which the experiment's verdict leaves out. */
        public String verdict() {
            String v = pass() ? "pass" : "fail";
            return figure.detail() ? "(" + v + ")" : v;
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
}
