package dev.pvtlb.pvops;

import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.smp.HostKnobs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Every knob a run can set, each declared once by its owner: the guest kernel's ({@link GuestKnobs}),
 * the host model's ({@link HostKnobs}) and each backend's ({@link PvBackend#knobs()}). A guest's
 * settings are resolved here at boot and by every check made before boot (the command line's), so
 * what boot accepts and what is checked ahead of it cannot drift apart.
 */
public final class KnobRegistry {
    private KnobRegistry() {}

    /**
     * The guest kernel's knobs and the host model's, which every backend takes. The host's stand
     * before the guest scheduler's {@code sched.balance}, where GuestKnobs declared them until they
     * had an owner of their own: {@code pvtlb backends} and the unknown-setting message keep their order.
     */
    private static final List<KnobSpec> COMMON = guestAndHost();

    private static List<KnobSpec> guestAndHost() {
        List<KnobSpec> all = new ArrayList<>(GuestKnobs.SPECS);
        all.addAll(all.indexOf(GuestKnobs.SCHED_BALANCE), HostKnobs.SPECS);
        return List.copyOf(all);
    }

    /** The knobs every backend takes: the guest kernel's and the host model's. */
    public static List<KnobSpec> common() {
        return COMMON;
    }

    /** The knobs a guest on {@code backend} takes: the common ones and that backend's own. */
    public static List<KnobSpec> of(PvBackend backend) {
        List<KnobSpec> specs = new ArrayList<>(common());
        specs.addAll(backend.knobs());
        return specs;
    }

    /** Whether {@code name} is a knob of any owner: a common one or a registered backend's. */
    public static boolean isKnob(String name) {
        return common().stream().anyMatch(s -> s.name().equals(name)) || PvBackends.ownerOf(name) != null;
    }

    /**
     * The knob values of a guest on {@code backend} with {@code settings}: a knob of another
     * backend is refused by name (with the backend to choose instead), {@code kernel=RELEASE}
     * fills in that release's designs beneath the knobs set explicitly, and an unknown knob or a
     * value a knob does not allow is refused by {@link Knobs#of}.
     */
    public static Knobs resolve(PvBackend backend, Map<String, String> settings) {
        return resolve(backend, settings, Map.of());
    }

    /** As {@link #resolve(PvBackend, Map)}, with a workload's defaults beneath both the preset and {@code settings}. */
    public static Knobs resolve(PvBackend backend, Map<String, String> settings, Map<String, String> workloadDefaults) {
        List<KnobSpec> specs = of(backend);
        for (String k : settings.keySet()) {
            if (specs.stream().noneMatch(s -> s.name().equals(k))) {
                PvBackend owner = PvBackends.ownerOf(k);
                if (owner != null) {
                    throw new ModelException("knob " + k + " belongs to backend " + owner.name() + ", not "
                            + backend.name() + " (use --backend " + owner.name() + ")");
                }
            }
        }
        Map<String, String> resolved = new java.util.LinkedHashMap<>(KernelRelease.withPreset(backend.name(), specs, settings));
        workloadDefaults.forEach(resolved::putIfAbsent);
        return Knobs.of(specs, resolved);
    }
}
