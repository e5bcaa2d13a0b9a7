package dev.pvtlb.internal.kernel;

import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvOps;
import dev.pvtlb.pvops.PvOpsPatcher;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.smp.VcpuHost;
import java.util.function.Consumer;

/**
 * Boot-time patching of pv_ops (paravirt_patch(), apply_paravirt()): the backend attaches to the
 * booting kernel, may install its host model and its IPI delivery, and its {@code @PvOp} methods
 * become the kernel's pv_ops. What the attachment said lives here until the guest is reset.
 */
final class PatchedPvOps {
    private PvOps pvOps;
    /** The object whose @PvOp methods the backend attached (Attachment.ops): its own state. */
    private Object backendOps;
    private VcpuHost vcpuHost;
    private boolean mmCpumaskTracked = true;

    /**
     * Attaches {@code backend} with {@code context} and {@code knobs}, hands the IPI delivery it
     * brings, if any, to {@code ipiDelivery} (the guest's IPI sender), then generates pv_ops
     * ({@code tracer}: null or a tracing wrapper).
     */
    void patch(PvBackend backend, BackendContext context, Knobs knobs, Consumer<IpiDelivery> ipiDelivery, PvOpsTracer tracer) {
        Object ops = backend.attach(context, knobs);
        if (ops instanceof Attachment a) {
            ops = a.ops();
            if (a.ipiDelivery() != null) {
                ipiDelivery.accept(a.ipiDelivery());
            }
            vcpuHost = a.vcpuHost();
            mmCpumaskTracked = a.mmCpumaskTracked();
        }
        this.backendOps = ops;
        this.pvOps = PvOpsPatcher.patch(backend.name(), ops, tracer);
    }

    PvOps pvOps() {
        return pvOps;
    }

    Object backendOps() {
        return backendOps;
    }

    /** The host model the vCPUs run on, or null on bare metal. */
    VcpuHost vcpuHost() {
        return vcpuHost;
    }

    /**
     * Whether switch_mm maintains mm_cpumask. A backend that does not need the mask for
     * flushing may stop maintaining it (arm64), which is only safe while nothing relies on it.
     */
    boolean mmCpumaskTracked() {
        return mmCpumaskTracked;
    }

    /** A guest reset: nothing attached until the next patch. */
    void clear() {
        vcpuHost = null;
        mmCpumaskTracked = true;
    }
}
