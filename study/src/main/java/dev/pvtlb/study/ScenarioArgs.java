package dev.pvtlb.study;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.pvops.KnobRegistry;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.run.ScenarioFile;
import java.nio.file.Path;
import java.util.List;

/**
 * A scenario from the words a command line gives it: a built-in name or a file, then a backend,
 * seed, repetitions and KEY=VALUE overrides. Here rather than in the command line because the
 * validation runs ({@code pvtlb-validation}) are started from the same words and must be built,
 * and checked before boot, exactly as {@code pvtlb run} builds them.
 */
public final class ScenarioArgs {
    private ScenarioArgs() {}

    /** Builds the scenario; options left null keep the file's (or the built-in's) values. */
    public static Scenario build(String scenario, String backend, List<String> sets, Long seed, Integer reps) {
        Scenario s = ScenarioFile.looksLikeFile(scenario) ? ScenarioFile.load(Path.of(scenario)) : Scenario.of(scenario);
        if (backend != null) {
            s.backend(backend);
        }
        if (seed != null) {
            s.seed(seed);
        }
        if (reps != null) {
            s.reps(reps);
        }
        for (String kv : sets) {
            set(s, kv, "--set");
        }
        return s;
    }

    /** Checks what boot would check (topology, profile, host, knob values) without booting. */
    public static void check(Scenario s) {
        GuestConfig cfg = s.guestConfig(0);
        KnobRegistry.resolve(cfg.backend(), cfg.knobs(), cfg.workloadKnobs());
    }

    /**
     * {@code scenario} as the explorer hunts in it ({@link dev.pvtlb.explore.Explorer#huntDefaults}),
     * checked as boot would check it: a scenario the backend or the settings refuse throws here.
     */
    public static Scenario forHunt(String scenario, String backend, List<String> sets, long seed) {
        Scenario s = dev.pvtlb.explore.Explorer.huntDefaults(build(scenario, backend, sets, seed, null));
        check(s);
        return s;
    }

    /** Applies one KEY=VALUE; the key {@code backend} chooses the backend (for --vary backend=a,b). */
    public static void set(Scenario s, String kv, String option) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
            throw new ModelException(option + " expects KEY=VALUE, got '" + kv + "'");
        }
        String k = kv.substring(0, eq).strip();
        String v = kv.substring(eq + 1).strip();
        if (k.equals("backend")) {
            s.backend(v);
        } else {
            s.set(k, v);
        }
    }
}
