package dev.pvtlb.validation;

import dev.pvtlb.config.Fidelity;
import dev.pvtlb.report.ProgressBar;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How {@link Validation#run} runs the experiments.
 *
 * @param fidelity the timing detail of every run (a run's own {@code fidelity=} setting comes first)
 * @param parallel runs at once; each run boots its own guests, so any number gives the same figures
 * @param sensitivity also run each experiment with every ASSUMED profile figure at the low and
 *        the high end of its range ({@link Sensitivity}), which takes many times longer
 * @param steady also run every run with its measurement window doubled ({@link SteadyState})
 * @param progress where progress is drawn
 * @param reps repetitions of every run (the acceptance check's 3 by default): more narrow the
 *        standard errors and may resolve a verdict the default leaves unresolved
 *        ({@link ValidationResult.Figure#resolved()})
 * @param sensitivityKeys with {@code sensitivity}, vary only these ASSUMED figures (empty: every
 *        one); a sensitivity of some figures judges no experiment reproduced
 * @param log where the sensitivity writes a line per end as soon as that end is judged
 */
public record ValidationOptions(Fidelity fidelity, int parallel, boolean sensitivity, boolean steady, ProgressBar progress,
        int reps, List<String> sensitivityKeys, Consumer<String> log) {
    public ValidationOptions {
        Objects.requireNonNull(fidelity, "fidelity");
        Objects.requireNonNull(progress, "progress");
        sensitivityKeys = List.copyOf(sensitivityKeys);
        Objects.requireNonNull(log, "log");
        if (parallel < 1) {
            throw new IllegalArgumentException("parallel must be at least 1, got " + parallel);
        }
        if (reps < 1) {
            throw new IllegalArgumentException("reps must be at least 1, got " + reps);
        }
    }

    /** The acceptance check's repetitions of every run, {@code --reps 3}. */
    public static final int DEFAULT_REPS = ValidationRun.REPS;

    /** Options that vary every ASSUMED figure in a sensitivity and write no line as it goes. */
    public ValidationOptions(Fidelity fidelity, int parallel, boolean sensitivity, boolean steady, ProgressBar progress, int reps) {
        this(fidelity, parallel, sensitivity, steady, progress, reps, List.of(), line -> { });
    }

    /** Options with the acceptance check's repetitions ({@code --reps 3}). */
    public ValidationOptions(Fidelity fidelity, int parallel, boolean sensitivity, boolean steady, ProgressBar progress) {
        this(fidelity, parallel, sensitivity, steady, progress, ValidationRun.REPS);
    }

    /** The command's defaults: fast fidelity, one run per core, the table alone, no progress drawn. */
    public static ValidationOptions defaults() {
        return new ValidationOptions(Fidelity.FAST, Runtime.getRuntime().availableProcessors(), false, false,
                new ProgressBar(new PrintWriter(Writer.nullWriter()), true));
    }
}
