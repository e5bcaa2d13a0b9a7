package dev.pvtlb.internal.backends;

import dev.pvtlb.host.KvmHost;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.Counter;
import java.util.function.Predicate;

/**
 * The end of kvm_smp_send_call_func_ipi() (arch/x86/kernel/kvm.c, 715062970f37), after
 * native_send_call_func_ipi() has returned: the guest looks for the first target whose
 * steal_time.preempted is set and issues KVM_HC_SCHED_YIELD naming it; the host's
 * kvm_sched_yield() answers with yield_to() if it can. Two steps, so each happens in its order on
 * the machine: the look once the IPIs' hypercall has returned (the IPIs are posted by then), and the
 * host's yield once the yield's own hypercall has taken its time (a hypercall's host side acts at
 * its end in this model, as {@code HypercallIpi} posts IPIs). Done in the sender's step, the
 * yield's reschedule IPI went out a hypercall before the call-function IPIs and beat them to the
 * targets' pCPUs: a running target was switched out before its IPI arrived.
 */
final class SchedYieldHypercall extends KernelPath {
    private final Cpu[] targets;
    /** Whether the guest would yield to a target (vcpu_is_preempted(), and !idle_cpu() since 9ee83635d872). */
    private final Predicate<Cpu> yieldsTo;
    private final KvmHost host;
    /** hypercall.ns: the VMCALL round trip. */
    private final long hypercallNs;
    /** The guest, whose counters the yield's hypercall counts in. */
    private final BackendContext guest;
    private Cpu target;

    SchedYieldHypercall(Cpu[] targets, Predicate<Cpu> yieldsTo, KvmHost host, long hypercallNs, BackendContext guest) {
        this.targets = targets;
        this.yieldsTo = yieldsTo;
        this.host = host;
        this.hypercallNs = hypercallNs;
        this.guest = guest;
    }

    @Override
    public long step(Cpu cpu) {
        if (pc == 0) {
            for (Cpu t : targets) {
                if (yieldsTo.test(t)) {
                    // The loop stops at the first such target whether or not the host can yield to it.
                    target = t;
                    guest.count(Counter.HYPERCALLS, 1);
                    pc = 1;
                    return hypercallNs;
                }
            }
            cpu.ret();
            return 0;
        }
        cpu.ret();
        host.schedYield(cpu, target);
        return 0;
    }

    @Override
    public String name() {
        return "kvm_smp_send_call_func_ipi";
    }
}
