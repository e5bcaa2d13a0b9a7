package dev.pvtlb.internal.host;

import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.stats.Counter;

/**
 * A paravirtual guest's IPIs: a hypercall per send (KVM_HC_SEND_IPI, Hyper-V HVCALL_SEND_IPI
 * take a vCPU mask) or one per target (Xen EVTCHNOP_send on each target's event channel).
 * The host posts the interrupt; a target that is not running takes it when it next runs.
 */
public final class HypercallIpi implements IpiDelivery {
    private final boolean perTarget;

    public HypercallIpi(boolean perTarget) {
        this.perTarget = perTarget;
    }

    @Override
    public long send(Cpu sender, Cpu[] targets, int count, dev.pvtlb.smp.IpiKind kind) {
        KernelCpu from = (KernelCpu) sender;
        Engine e = from.kernel().engine();
        Costs c = from.kernel().costs();
        int calls = perTarget ? count : 1;
        long cost = calls * c.hypercallNs;
        from.kernel().vmstat().add(Counter.HYPERCALLS, calls);
        for (int i = 0; i < count; i++) {
            long latency = c.ipiLatencyNs(e, ChoicePoint.IPI_LATENCY);
            long sentAt = perTarget ? (i + 1) * c.hypercallNs : cost;
            ((KernelCpu) targets[i]).interrupts().scheduleArrival("ipi by hypercall", from, e.now() + sentAt, e.now() + sentAt + latency, kind);
            from.kernel().vmstat().inc(Counter.IPIS_SENT);
        }
        return cost;
    }
}
