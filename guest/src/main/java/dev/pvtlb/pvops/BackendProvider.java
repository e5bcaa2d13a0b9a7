package dev.pvtlb.pvops;

import dev.pvtlb.knob.KnobSpec;
import java.util.List;

/** A {@link PvBackend} described by constructor arguments: what every built-in provider needs. */
public abstract class BackendProvider implements PvBackend {
    private final String name;
    private final String description;
    private final boolean virtualized;
    private final List<KnobSpec> knobs;

    protected BackendProvider(String name, String description, boolean virtualized, KnobSpec... knobs) {
        this.name = name;
        this.description = description;
        this.virtualized = virtualized;
        this.knobs = List.of(knobs);
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final List<KnobSpec> knobs() {
        return knobs;
    }

    @Override
    public final boolean virtualized() {
        return virtualized;
    }
}
