package dev.pvtlb.cli;

import dev.pvtlb.ModelException;
import dev.pvtlb.run.Scenario;
import java.util.List;

/** Builds a scenario from the command line's pieces (name, backend, seed, KEY=VALUE settings). */
final class Scenarios {
    private Scenarios() {}

    static Scenario build(String name, String backend, long seed, List<String> sets) {
        Scenario s = Scenario.of(name).seed(seed).backend(backend);
        for (String kv : sets) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new ModelException("--set expects KEY=VALUE, got '" + kv + "'");
            }
            s.set(kv.substring(0, eq).strip(), kv.substring(eq + 1));
        }
        return s;
    }
}
