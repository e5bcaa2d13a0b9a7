package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.stats.Counter;

/**
 * IPIs through the local APIC (x2APIC physical destination mode: one ICR write per target).
 * Each arrival latency is a choice point within the profile's range.
 */
public final class BareMetalIpi implements IpiDelivery {
    /** The APIC's delivery; the guest's default. */
    public BareMetalIpi() {}

    @Override
    public long send(Cpu sender, Cpu[] targets, int count) {
        KernelCpu from = (KernelCpu) sender;
        Engine e = from.kernel().engine();
        Costs c = from.kernel().costs();
        long cost = 0;
        for (int i = 0; i < count; i++) {
            cost += c.ipiSendNs;
            long latency = e.chooseInRange(ChoicePoint.IPI_LATENCY, c.ipiLatencyMinNs, c.ipiLatencyMaxNs, c.ipiLatencyPoints);
            ((KernelCpu) targets[i]).scheduleIpiArrival(e.now() + cost + latency);
            from.kernel().vmstat().inc(Counter.IPIS_SENT);
        }
        return cost;
    }
}
