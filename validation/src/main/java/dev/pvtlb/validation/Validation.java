package dev.pvtlb.validation;

import dev.pvtlb.report.ProgressBar;
import java.util.List;

/**
 * The model set against published measurements: the experiments of docs/validation.md (each a
 * source's machine and workload, the emulated runs that repeat it, and the band every emulated
 * figure must fall in), run as the acceptance check runs them ({@code --reps 3 --seed 1}).
 * {@code pvtlb validate}, the Spark job's tests and an embedding program all go through here, so
 * a figure an embedder reads is the figure the command prints and docs/validation.md carries.
 *
 * <pre>{@code
 * ValidationOutcome o = Validation.run(Validation.select(List.of("lazy-tlb")), ValidationOptions.defaults());
 * o.print(new PrintWriter(System.out, true));   // the table pvtlb validate prints
 * String json = o.json();                        // what --json writes
 * }</pre>
 *
 * <p>A fail verdict is a result, not an error: {@link #run} returns whenever every run ran. The
 * same experiments give the same bytes: nothing here reads a clock. Validation against this
 * host instead of a published machine is {@link HostValidation#run}; measuring this host into a
 * profile is {@code dev.pvtlb.validation.calibration.Calibration}.
 */
public final class Validation {
    /** The first line of the block of a Markdown page that {@link ValidationOutcome#markdownInto} replaces. */
    public static final String MARKDOWN_BEGIN = "<!-- BEGIN generated: pvtlb validate --markdown -->";

    private Validation() {}

    /** Every experiment, in the order of validation.md's tables. */
    public static List<ValidationExperiment> experiments() {
        return ValidationExperiments.ALL;
    }

    /** The experiments' ids, in table order ({@code concurrent-flush}, {@code lazy-tlb}, ...). */
    public static List<String> ids() {
        return ValidationExperiments.ids();
    }

    /**
     * The experiments named, in table order; all of them for an empty list.
     *
     * @throws dev.pvtlb.model.ModelException for an id that names no experiment
     */
    public static List<ValidationExperiment> select(List<String> ids) {
        return ValidationExperiments.select(ids);
    }

    /**
     * Runs the experiments' runs (each distinct run once, {@code options.parallel()} at once) at
     * {@code options.fidelity()}, then, when asked, the sensitivity and the steady-state runs, and
     * judges every figure. What cannot run (a run the model refuses, a run whose window cannot be
     * doubled, sensitivity with no ASSUMED range) is refused before the first run.
     */
    public static ValidationOutcome run(List<ValidationExperiment> experiments, ValidationOptions options)
            throws InterruptedException {
        List<ValidationRun> runs = ValidationRunner.runsOf(experiments).stream()
                .map(r -> r.at(options.fidelity()).withReps(options.reps())).toList();
        if (options.sensitivity() && Sensitivity.rangesOf(runs).isEmpty()) {
            throw new dev.pvtlb.model.ModelException("--sensitivity: the runs' profile gives no ASSUMED figure with a range "
                    + "('# ASSUMED range: LOW..HIGH' above its key); nothing to vary");
        }
        checkKeys(options, runs);
        List<ValidationRun> doubledRuns = options.steady() ? SteadyState.doubledRuns(runs) : null;
        RunResults results = ValidationRunner.run(runs, options.parallel(), options.progress());
        List<ValidationResult> outcome = experiments.stream().map(e -> ValidationResult.of(e, results)).toList();
        // Sensitivity runs after the table's runs, so a failing figure is seen before the long part.
        Sensitivity s = options.sensitivity()
                ? Sensitivity.run(experiments, outcome, runs, results, options.parallel(), options.progress(),
                        new java.util.HashSet<>(options.sensitivityKeys()), options.log()) : null;
        SteadyState st = options.steady()
                ? SteadyState.run(outcome, runs, doubledRuns, options.parallel(), options.progress()) : null;
        return new ValidationOutcome(outcome, options.fidelity().key(), options.reps(), s, st);
    }

    /** Refuses sensitivity keys without a sensitivity, or naming a figure no run's profile gives a range. */
    private static void checkKeys(ValidationOptions options, List<ValidationRun> runs) {
        if (options.sensitivityKeys().isEmpty()) {
            return;
        }
        if (!options.sensitivity()) {
            throw new dev.pvtlb.model.ModelException("--keys goes with --sensitivity");
        }
        java.util.Set<String> ranged = Sensitivity.rangesOf(runs).keySet();
        for (String key : options.sensitivityKeys()) {
            if (!ranged.contains(key)) {
                throw new dev.pvtlb.model.ModelException("--keys: '" + key + "' is not an ASSUMED figure with a range in the profiles "
                        + "of these experiments' runs (" + ranged.size() + " are: " + String.join(", ", ranged) + ")");
            }
        }
    }

    /**
     * Runs every experiment at both fidelity levels and sets each figure at {@code exact} beside
     * {@code fast} (docs/fidelity.md): whether the fast level may stand in for the exact one.
     */
    public static FidelityCheck fidelityCheck(List<ValidationExperiment> experiments, int parallel, ProgressBar progress)
            throws InterruptedException {
        return FidelityCheck.run(experiments, ValidationRunner.runsOf(experiments), parallel, progress);
    }
}
