package dev.pvtlb.itests;

import java.util.List;

/**
 * One row of {@link BackendTable}: a pv_ops backend, the built-in scenario and seed its
 * container runs, and the rules its report's counters must keep.
 */
record Backend(String name, String scenario, long seed, List<CounterRule> rules) {
    Backend(String name, String scenario, long seed, CounterRule... rules) {
        this(name, scenario, seed, List.of(rules));
    }

    /** pvtlb's arguments for this row, writing the report to {@code json} inside the container. */
    List<String> runArgs(String json) {
        return List.of("run", scenario, "--backend", name, "--seed", Long.toString(seed), "--json", json);
    }

    /** The name alone, for parameterised test names. */
    @Override
    public String toString() {
        return name;
    }
}
