package dev.pvtlb.host;

import dev.pvtlb.smp.Cpu;

/**
 * What the host tells a backend about one of its guest's vCPU threads. Entry is two steps:
 * {@link #entryBegin} when the host picks the vCPU (vcpu_enter_guest() starts; KVM's
 * record_steal_time() runs here) and {@link #entryEnd} one VM-entry time later, right before guest
 * code runs; work split across them can race with the guest's own writes.
 */
public interface VcpuEvents {
    /** No events wanted. */
    VcpuEvents NONE = new VcpuEvents() {};

    /**
     * The vCPU's thread left its pCPU (kvm_sched_out() -> kvm_arch_vcpu_put()); {@code wasRunnable}:
     * it was preempted while runnable, not halted.
     */
    default void descheduled(Cpu vcpu, boolean wasRunnable) {}

    /** The host picked the vCPU and starts entering it (vcpu_enter_guest()). */
    default void entryBegin(Cpu vcpu) {}

    /** The entry ends: guest code runs next. */
    default void entryEnd(Cpu vcpu) {}
}
