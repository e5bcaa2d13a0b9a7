package dev.pvtlb.config;

import dev.pvtlb.model.ModelException;
import java.util.Locale;

/**
 * How much timing detail a run keeps. {@link #EXACT} is the model step by step: every kernel
 * path step is one event, so another CPU can act between any two. {@link #FAST} runs the same
 * model with some sequences of steps taken as one event where no other event falls between them,
 * so no figure changes (docs/fidelity.md says which and measures it); the hazard oracle sees the
 * same accesses either way. The explorer and replay run {@code exact}, since a
 * schedule is a sequence of steps.
 */
public enum Fidelity {
    EXACT,
    FAST;

    /** The level's name as a setting writes it: {@code exact} or {@code fast}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a setting's value; anything but {@code exact} or {@code fast} is a one-line error. */
    public static Fidelity parse(String v) {
        return switch (v) {
            case "exact" -> EXACT;
            case "fast" -> FAST;
            default -> throw new ModelException("fidelity must be exact or fast, got '" + v + "'");
        };
    }
}
