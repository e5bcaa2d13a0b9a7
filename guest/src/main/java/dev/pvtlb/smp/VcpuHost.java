package dev.pvtlb.smp;

/**
 * What the host model needs to hear from a vCPU: that it halted (HLT in the idle loop: a VM
 * exit, and the vCPU is no longer runnable) and that something woke a halted vCPU (an
 * interrupt or a wake-up: it becomes runnable and waits for its pCPU), and that it spins
 * waiting for other vCPUs (a pause-loop exit may catch it). Bare metal has none.
 */
public interface VcpuHost {
    void halted(Cpu vcpu);

    void kicked(Cpu vcpu);

    /**
     * The end of a pv_kick() hypercall (KVM_HC_KICK_CPU) from {@code from} that woke the halted
     * {@code kicked}: a KVM host since 266e85a5ec91 yields {@code from}'s pCPU to it
     * (kvm_sched_yield() after kvm_pv_kick_cpu_op()). Other hosts: nothing more.
     */
    default void kickReturned(Cpu from, Cpu kicked) {}

    /**
     * pv_kick(): {@code from}'s KVM_HC_KICK_CPU wakes {@code halted}, halted in pv_wait(). A host
     * wakes the vCPU thread from {@code from}'s pCPU (kvm_pv_kick_cpu_op() -> kvm_vcpu_kick() ->
     * try_to_wake_up()), so preempting the vCPU that runs on another pCPU waits for the reschedule
     * IPI there. By default a plain wake.
     */
    default void kick(Cpu from, Cpu halted) {
        halted.wake();
    }

    /**
     * The vCPU started to spin with interrupts on, waiting for other CPUs (csd_lock_wait in
     * smp_call_function_many_cond): what a pause-loop exit can catch. Bare metal ignores it.
     */
    default void spinning(Cpu vcpu) {}

    /**
     * Whether the guest's spinlock waiters halt after spinning a while and are kicked by the
     * unlocker (paravirtual spinlocks: pv_wait/pv_kick). Bare metal and hosts without them: no.
     */
    default boolean pvSpinlock() {
        return false;
    }

    /**
     * The time slice the host's scheduler gives a vCPU thread that shares its pCPU with one other
     * runnable thread: what "a host slice" means to a workload that runs for a number of them.
     */
    long sharedSliceNs();
}
