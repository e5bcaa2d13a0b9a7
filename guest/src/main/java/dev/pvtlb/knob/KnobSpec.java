package dev.pvtlb.knob;

import java.util.List;

/**
 * One design knob (DESIGN.md rule 3): a named alternative of the modelled kernel or backend,
 * with its allowed values and the default, which is what current Linux does.
 */
public record KnobSpec(String name, String defaultValue, List<String> allowed, String description) {
    public KnobSpec {
        if (!allowed.contains(defaultValue)) {
            throw new IllegalArgumentException("default " + defaultValue + " of " + name + " not allowed");
        }
        allowed = List.copyOf(allowed);
    }

    public static KnobSpec bool(String name, boolean dflt, String description) {
        return new KnobSpec(name, Boolean.toString(dflt), List.of("true", "false"), description);
    }

    public static KnobSpec choice(String name, String dflt, String description, String... values) {
        return new KnobSpec(name, dflt, List.of(values), description);
    }
}
