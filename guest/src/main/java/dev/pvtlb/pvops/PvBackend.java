package dev.pvtlb.pvops;

import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import java.util.List;

/**
 * A pv_ops backend as a plug-in (ServiceLoader service {@code dev.pvtlb.pvops.PvBackend}).
 * The built-in backends of {@code hypervisors} and a user's own jar register the same way.
 */
public interface PvBackend {
    /** The name users pass to {@code --backend}. */
    String name();

    /** One line for {@code pvtlb backends}. */
    String description();

    /** This backend's knobs with their defaults (each name should start with the backend's prefix). */
    List<KnobSpec> knobs();

    /**
     * Whether this backend runs the guest as a VM on the host model (vCPUs scheduled on pCPUs,
     * VM exits and hypercalls cost their profile figures). False: bare metal, one CPU per
     * pCPU and no host costs.
     */
    default boolean virtualized() {
        return false;
    }

    /**
     * Installs the backend into a freshly booted guest and returns what it wires in: the
     * object whose {@link PvOp} methods implement pv_ops, or an {@link Attachment} holding it
     * with the IPI delivery, vCPU host and {@code mm_cpumask} policy the backend brings. Called
     * once per boot (and again when the explorer resets the guest).
     */
    Object attach(BackendContext context, Knobs knobs);
}
