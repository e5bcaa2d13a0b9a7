package dev.pvtlb.cli;

import dev.pvtlb.run.Scenario;
import java.util.ArrayList;
import java.util.List;

/**
 * One run an experiment reads, exactly as the acceptance check (10-cost-fidelity) starts it:
 * {@code pvtlb run SCENARIO [--backend B] --set ... --reps 3 --seed 1}. Its key is the name the
 * check gives its JSON file (cf-8-true, smt-false, ...), so the two can be read side by side.
 */
record ValidationRun(String key, String scenario, String backend, List<String> sets) {
    /** Seed and repetitions of every validation run (the acceptance check's {@code --reps 3 --seed 1}). */
    static final long SEED = 1;
    static final int REPS = 3;

    static ValidationRun of(String key, String scenario, String... sets) {
        return new ValidationRun(key, scenario, null, List.of(sets));
    }

    static ValidationRun onBackend(String key, String scenario, String backend, String... sets) {
        return new ValidationRun(key, scenario, backend, List.of(sets));
    }

    /** This run on the machine profile {@code profile}, set first so that the run's own settings come after it. */
    ValidationRun onProfile(String profile) {
        List<String> all = new ArrayList<>();
        all.add("profile=" + profile);
        all.addAll(sets);
        return new ValidationRun(key, scenario, backend, List.copyOf(all));
    }

    Scenario build() {
        return ScenarioArgs.build(scenario, backend, sets, SEED, REPS);
    }

    /** The command line that gives the same report. */
    String commandLine() {
        List<String> words = new ArrayList<>(List.of("pvtlb", "run", scenario));
        if (backend != null) {
            words.add("--backend");
            words.add(backend);
        }
        for (String s : sets) {
            words.add("--set");
            words.add(s);
        }
        words.addAll(List.of("--reps", Integer.toString(REPS), "--seed", Long.toString(SEED)));
        return String.join(" ", words);
    }
}
