package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.stats.Counter;

/**
 * IPIs through the local APIC. In x2APIC physical destination mode (x2apic_phys.c) the sender
 * writes the ICR once per target; in cluster mode (x2apic_cluster.c, knob {@code x86.x2apic})
 * __x2apic_send_IPI_mask() writes it once per cluster of 16 APIC IDs ({@code apic_cluster(id) =
 * id >> 4}) with the logical IDs of every target of that cluster, clusters in the order of their
 * first CPU in the mask. Each arrival latency is a choice point within the profile's range.
 */
public final class BareMetalIpi implements IpiDelivery {
    /** The APIC's delivery; the guest's default. */
    public BareMetalIpi() {}

    @Override
    public long send(Cpu sender, Cpu[] targets, int count, dev.pvtlb.smp.IpiKind kind) {
        KernelCpu from = (KernelCpu) sender;
        Engine e = from.kernel().engine();
        Costs c = from.kernel().costs();
        long cost = 0;
        boolean cluster = from.kernel().knobs().x2apicCluster;
        dev.pvtlb.smp.Topology topo = from.kernel().topology();
        // In cluster mode, the cost after the ICR write that carried each target's cluster.
        java.util.Map<Integer, Long> clusterWritten = cluster ? new java.util.HashMap<>() : null;
        for (int i = 0; i < count; i++) {
            long sentAt;
            if (cluster) {
                int id = topo.apicId(targets[i].id()) >> 4;
                Long at = clusterWritten.get(id);
                if (at == null) {
                    cost += c.ipiSendNs;
                    at = cost;
                    clusterWritten.put(id, at);
                }
                sentAt = at;
            } else {
                cost += c.ipiSendNs;
                sentAt = cost;
            }
            long latency = c.ipiLatencyNs(e, ChoicePoint.IPI_LATENCY);
            ((KernelCpu) targets[i]).interrupts().scheduleArrival("ipi", from, e.now() + sentAt, e.now() + sentAt + latency, kind);
            from.kernel().vmstat().inc(Counter.IPIS_SENT);
        }
        return cost;
    }
}
