package dev.pvtlb.pvops;

import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.smp.VcpuHost;

/**
 * What a backend wires into the guest it is attached to, returned from
 * {@link PvBackend#attach} instead of set on the guest: the object whose {@link PvOp} methods
 * implement pv_ops, and optionally how IPIs reach vCPUs (a paravirtual guest's send-IPI
 * hypercall), which vCPUs run (a host model), and whether {@code mm_cpumask} is kept exact
 * (arm64 has no such tracking to rely on). A backend with nothing but ops may return them alone.
 *
 * @param ops the pv_ops implementation
 * @param ipiDelivery how IPIs are delivered; null: the APIC's ({@link dev.pvtlb.internal.kernel.BareMetalIpi})
 * @param vcpuHost which vCPUs run; null: bare metal, every CPU always runs
 * @param mmCpumaskTracked false when CPUs are not removed from {@code mm_cpumask} on switch
 */
public record Attachment(Object ops, IpiDelivery ipiDelivery, VcpuHost vcpuHost, boolean mmCpumaskTracked) {
    public Attachment {
        if (ops == null) {
            throw new IllegalArgumentException("an attachment needs its pv_ops object");
        }
    }

    /** Only ops: bare-metal IPIs, every CPU running, mm_cpumask tracked. */
    public static Attachment of(Object ops) {
        return new Attachment(ops, null, null, true);
    }

    public Attachment withIpiDelivery(IpiDelivery d) {
        return new Attachment(ops, d, vcpuHost, mmCpumaskTracked);
    }

    public Attachment withVcpuHost(VcpuHost h) {
        return new Attachment(ops, ipiDelivery, h, mmCpumaskTracked);
    }

    public Attachment withMmCpumaskTracked(boolean on) {
        return new Attachment(ops, ipiDelivery, vcpuHost, on);
    }
}
