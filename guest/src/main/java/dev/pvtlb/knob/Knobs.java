package dev.pvtlb.knob;

import dev.pvtlb.model.ModelException;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The knob values of one run: every known knob, each at its default unless set. Unknown knob
 * names and values outside a knob's allowed set are refused with a message listing what is
 * allowed. Iteration is in name order so reports are deterministic.
 */
public final class Knobs {
    private final Map<String, KnobSpec> specs;
    private final Map<String, String> values;

    private Knobs(Map<String, KnobSpec> specs, Map<String, String> values) {
        this.specs = specs;
        this.values = values;
    }

    public static Knobs defaults(Collection<KnobSpec> specs) {
        return of(specs, Map.of());
    }

    /** Knobs with the given settings applied over the defaults. */
    public static Knobs of(Collection<KnobSpec> specs, Map<String, String> settings) {
        Map<String, KnobSpec> byName = new TreeMap<>();
        for (KnobSpec s : specs) {
            byName.put(s.name(), s);
        }
        Map<String, String> v = new TreeMap<>();
        for (KnobSpec s : byName.values()) {
            v.put(s.name(), s.defaultValue());
        }
        for (var e : settings.entrySet()) {
            KnobSpec s = byName.get(e.getKey());
            if (s == null) {
                throw new ModelException("unknown knob '" + e.getKey() + "' (known: " + String.join(", ", byName.keySet()) + ")");
            }
            String val = e.getValue() == null ? "" : e.getValue().strip();
            if (!s.allowed().contains(val)) {
                throw new ModelException("knob " + s.name() + " cannot be '" + val + "' (allowed: "
                        + String.join("|", s.allowed()) + ")");
            }
            v.put(s.name(), val);
        }
        return new Knobs(Collections.unmodifiableMap(byName), Collections.unmodifiableMap(v));
    }

    /** These knobs with more settings applied (e.g. a backend's knobs after boot-time registration). */
    public Knobs with(Collection<KnobSpec> moreSpecs, Map<String, String> settings) {
        Map<String, KnobSpec> all = new LinkedHashMap<>(specs);
        for (KnobSpec s : moreSpecs) {
            all.put(s.name(), s);
        }
        Map<String, String> merged = new LinkedHashMap<>();
        for (var e : values.entrySet()) {
            if (!e.getValue().equals(specs.get(e.getKey()).defaultValue())) {
                merged.put(e.getKey(), e.getValue());
            }
        }
        merged.putAll(settings);
        return of(all.values(), merged);
    }

    public String get(String name) {
        String v = values.get(name);
        if (v == null) {
            throw new IllegalArgumentException("no knob " + name);
        }
        return v;
    }

    public boolean bool(String name) {
        return Boolean.parseBoolean(get(name));
    }

    public boolean isKnown(String name) {
        return specs.containsKey(name);
    }

    /** All knob values, by name. */
    public Map<String, String> values() {
        return values;
    }

    public Collection<KnobSpec> specs() {
        return specs.values();
    }
}
