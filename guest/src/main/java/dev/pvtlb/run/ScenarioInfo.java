package dev.pvtlb.run;

import dev.pvtlb.internal.workload.Workload;
import dev.pvtlb.internal.workload.catalogue.Workloads;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a built-in scenario is, without booting it: its name, what it does, its parameters with
 * their defaults, and whether it is a catalogue entry (a small scenario reproducing one historical
 * TLB-flush bug under one knob setting). Built-ins include the workloads a user's jar registers.
 *
 * @param name the name {@link Scenario#of} takes
 * @param description one line on what it runs
 * @param parameters each parameter and its default, in the workload's order
 * @param catalogueEntry a catalogue entry (what {@code explore} hunts with)
 */
public record ScenarioInfo(String name, String description, Map<String, String> parameters, boolean catalogueEntry) {
    public ScenarioInfo {
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /** Every built-in scenario, in name order. */
    public static List<ScenarioInfo> all() {
        return Workloads.all().stream().map(ScenarioInfo::of).toList();
    }

    /** The catalogue's entries, in name order. */
    public static List<ScenarioInfo> catalogue() {
        return all().stream().filter(ScenarioInfo::catalogueEntry).toList();
    }

    /** The built-in scenario {@code name}; an unknown name is bad input (a one-line ModelException naming the built-ins). */
    public static ScenarioInfo of(String name) {
        return of(Workloads.byName(name));
    }

    private static ScenarioInfo of(Workload w) {
        return new ScenarioInfo(w.name(), w.description(), w.parameters(), Workloads.inCatalogue(w));
    }
}
