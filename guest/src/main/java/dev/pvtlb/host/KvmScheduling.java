package dev.pvtlb.host;

/**
 * The KVM host mechanisms a KVM guest runs under (virt/kvm/kvm_main.c, arch/x86/kvm/vmx/vmx.c).
 *
 * @param ple pause-loop exiting (vmx.c: ple_gap != 0): a vCPU spinning past the PLE window exits
 *     and kvm_vcpu_on_spin() yields to another vCPU of its VM
 * @param boost directed-yield candidates are the vCPUs with vcpu->ready, which kvm_vcpu_wake_up()
 *     sets too (commit d73eb57b80b9, "KVM: Boost vCPUs that are delivering interrupts", 5.2);
 *     false: only vCPUs preempted while runnable (vcpu->preempted)
 * @param boostUserMode a vCPU preempted in user mode is a candidate when an interrupt is pending
 *     for it (kvm_arch_dy_has_pending_interrupt(), commit 52acd22faa1a, 5.13); false: never
 * @param haltPoll kvm_vcpu_halt() polls host.halt_poll.ns before scheduling a halted vCPU out
 * @param pvSpinlock the guest's spinlock waiters halt and are kicked (KVM_FEATURE_PV_UNHALT)
 * @param kickYield KVM_HC_KICK_CPU ends with kvm_sched_yield() to the vCPU it woke: the unlocker's
 *     pCPU goes to the kicked queue head if it is ready (commit 266e85a5ec91, "KVM: X86: Boost
 *     queue head vCPU to mitigate lock waiter preemption", applied 2019-07-24, Linux 5.4); false:
 *     the kick only wakes it
 */
public record KvmScheduling(boolean ple, boolean boost, boolean boostUserMode, boolean haltPoll, boolean pvSpinlock,
        boolean kickYield) {
    /** A host without the kick's yield (before 266e85a5ec91): what a design written before it passes. */
    public KvmScheduling(boolean ple, boolean boost, boolean boostUserMode, boolean haltPoll, boolean pvSpinlock) {
        this(ple, boost, boostUserMode, haltPoll, pvSpinlock, false);
    }
}
