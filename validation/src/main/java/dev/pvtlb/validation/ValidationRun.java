package dev.pvtlb.validation;

import dev.pvtlb.run.ScenarioInfo;
import dev.pvtlb.config.Fidelity;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.ScenarioArgs;
import java.util.ArrayList;
import java.util.List;

/**
 * One run an experiment reads, exactly as the acceptance check (10-cost-fidelity) starts it:
 * {@code pvtlb run SCENARIO [--backend B] --set ... --reps 3 --seed 1}. Its key is the name the
 * check gives its JSON file (cf-8-true, smt-false, ...), so the two can be read side by side.
 * {@code validate --reps N} runs it with N repetitions instead ({@link #withReps}).
 */
public record ValidationRun(String key, String scenario, String backend, List<String> sets, int reps) {
    /** Seed and repetitions of every validation run (the acceptance check's {@code --reps 3 --seed 1}). */
    static final long SEED = 1;
    static final int REPS = 3;

    public ValidationRun {
        if (reps < 1) {
            throw new dev.pvtlb.model.ModelException("--reps must be at least 1, got " + reps);
        }
    }

    /** A run with the acceptance check's {@value #REPS} repetitions. */
    ValidationRun(String key, String scenario, String backend, List<String> sets) {
        this(key, scenario, backend, sets, REPS);
    }

    static ValidationRun of(String key, String scenario, String... sets) {
        return new ValidationRun(key, scenario, null, List.of(sets));
    }

    static ValidationRun onBackend(String key, String scenario, String backend, String... sets) {
        return new ValidationRun(key, scenario, backend, List.of(sets));
    }

    /** This run with {@code n} repetitions: more narrow each figure's standard error, by the square root of their count. */
    ValidationRun withReps(int n) {
        return new ValidationRun(key, scenario, backend, sets, n);
    }

    /** This run on the machine profile {@code profile}, set first so that the run's own settings come after it. */
    ValidationRun onProfile(String profile) {
        List<String> all = new ArrayList<>();
        all.add("profile=" + profile);
        all.addAll(sets);
        return new ValidationRun(key, scenario, backend, List.copyOf(all), reps);
    }

    /** What a run's key ends with when its measurement window is doubled ({@link #doubled()}). */
    static final String DOUBLED = "@2x";

    /**
     * The parameter that sets how long the run measures. A run timed in simulated time
     * ({@code ops=timed}, set or the workload's default): ebizzy runs {@code host_slices} of the
     * host's scheduler, sysbench-mmap-rndwr {@code time_us} after its warm-up; every other run
     * goes for {@code ops} operations per thread (or per round).
     */
    String lengthKey() {
        if (!"timed".equals(setting("ops"))) {
            return "ops";
        }
        return ScenarioInfo.of(scenario).parameters().containsKey("time_us") ? "time_us" : "host_slices";
    }

    /** The simulated seconds before the measured window that no figure reads: the {@code warmup_us} of a timed run, else 0. */
    double warmupS() {
        if (!"timed".equals(setting("ops"))) {
            return 0;
        }
        String us = setting("warmup_us");
        return us == null ? 0 : Long.parseLong(us) / 1e6;
    }

    /** The value of parameter {@code name}: the run's own setting (the last one), else the workload's default. */
    String setting(String name) {
        String value = null;
        for (String s : sets) {
            if (s.startsWith(name + "=")) {
                value = s.substring(name.length() + 1).strip();
            }
        }
        return value != null ? value : ScenarioInfo.of(scenario).parameters().get(name);
    }

    /**
     * The parameters doubled with the window: {@link #lengthKey()}, and for the munmap program
     * ({@code shape=munmap.c}, which unmaps each of its region's mappings once) its region too.
     */
    List<String> lengthKeys() {
        return sets.contains("shape=munmap.c") ? List.of(lengthKey(), "region") : List.of(lengthKey());
    }

    /** The same run measuring twice as long: its {@link #lengthKeys()} doubled, its key ending in {@link #DOUBLED}. */
    ValidationRun doubled() {
        List<String> all = new ArrayList<>(sets);
        for (String name : lengthKeys()) {
            String value = setting(name);
            if (value == null || !value.matches("[0-9]+")) {
                throw new dev.pvtlb.model.ModelException("run " + key + ": cannot double its window: " + name + "=" + value
                        + " is not a count");
            }
            all.removeIf(s -> s.startsWith(name + "="));
            all.add(name + "=" + 2 * Long.parseLong(value));
        }
        return new ValidationRun(key + DOUBLED, scenario, backend, List.copyOf(all), reps);
    }

    /** The run's scenario, at the fast level unless its settings name one (validate's default, docs/fidelity.md). */
    Scenario build() {
        return ScenarioArgs.build(scenario, backend, sets, SEED, reps).defaultFidelity(Fidelity.FAST);
    }

    /** This run at fidelity level {@code f}: the setting goes last, so it wins over any the run had. */
    ValidationRun at(Fidelity f) {
        List<String> all = new ArrayList<>(sets);
        all.add("fidelity=" + f.key());
        return new ValidationRun(key, scenario, backend, List.copyOf(all), reps);
    }

    /** The command line that gives the same report. */
    public String commandLine() {
        List<String> words = new ArrayList<>(List.of("pvtlb", "run", scenario));
        if (backend != null) {
            words.add("--backend");
            words.add(backend);
        }
        for (String s : sets) {
            words.add("--set");
            words.add(s);
        }
        words.addAll(List.of("--reps", Integer.toString(reps), "--seed", Long.toString(SEED)));
        return String.join(" ", words);
    }
}
