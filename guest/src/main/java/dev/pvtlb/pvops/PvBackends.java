package dev.pvtlb.pvops;

import dev.pvtlb.ModelException;
import dev.pvtlb.knob.KnobSpec;
import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The registered backends: found once with ServiceLoader, by name, in name order. */
public final class PvBackends {
    private static volatile Map<String, PvBackend> all;

    private PvBackends() {}

    public static Map<String, PvBackend> all() {
        Map<String, PvBackend> m = all;
        if (m == null) {
            synchronized (PvBackends.class) {
                if (all == null) {
                    all = load(ServiceLoader.load(PvBackend.class, PvBackends.class.getClassLoader()));
                }
                m = all;
            }
        }
        return m;
    }

    static Map<String, PvBackend> load(Iterable<PvBackend> found) {
        Map<String, PvBackend> m = new TreeMap<>();
        for (PvBackend b : found) {
            PvBackend prev = m.putIfAbsent(b.name(), b);
            if (prev != null && prev.getClass() != b.getClass()) {
                throw new ModelException("two backends are named '" + b.name() + "': " + prev.getClass().getName()
                        + " and " + b.getClass().getName());
            }
        }
        return Collections.unmodifiableMap(m);
    }

    public static PvBackend byName(String name) {
        PvBackend b = all().get(name);
        if (b == null) {
            throw new ModelException("unknown backend '" + name + "' (available: " + String.join(", ", all().keySet()) + ")");
        }
        return b;
    }

    /** The backend that declares knob {@code name}, or null. */
    public static PvBackend ownerOf(String knob) {
        for (PvBackend b : all().values()) {
            for (KnobSpec k : b.knobs()) {
                if (k.name().equals(knob)) {
                    return b;
                }
            }
        }
        return null;
    }
}
