package dev.pvtlb.internal.host;

/**
 * What KVM does with a vCPU that spins (virt/kvm/kvm_main.c, arch/x86/kvm/vmx/vmx.c): the
 * pause-loop exit after the PLE window (handle_pause(), grow_ple_window()) and
 * kvm_vcpu_on_spin()'s directed yield to another vCPU of the same VM; and the host side of
 * KVM_HC_SCHED_YIELD (kvm_sched_yield(), arch/x86/kvm/x86.c, commit 715062970f37).
 *
 * @param ple pause-loop exiting on (vmx.c: ple_gap != 0)
 * @param boost candidates are vCPUs with vcpu->ready, which kvm_vcpu_wake_up() also sets
 *     (commit d73eb57b80b9, "KVM: Boost vCPUs that are delivering interrupts", 5.2); without it,
 *     only vCPUs preempted while runnable (vcpu->preempted)
 * @param boostUserMode a vCPU preempted in user mode is still a candidate when an interrupt is
 *     pending for it (kvm_arch_dy_has_pending_interrupt(), commit 52acd22faa1a, "KVM: Boost vCPU
 *     candidate in user mode which is delivering interrupt", 5.13); before, never
 * @param haltPoll kvm_vcpu_halt() polls halt_poll_ns before scheduling a halted vCPU out
 * @param pvSpinlock the guest's spinlock waiters halt and are kicked (KVM_FEATURE_PV_UNHALT)
 */
public record KvmSpin(boolean ple, boolean boost, boolean boostUserMode, boolean haltPoll, boolean pvSpinlock) {
    /** kvm_vcpu_on_spin() of {@code me}, spinning in kernel mode (yield_to_kernel_mode: csd_lock_wait). */
    void onSpin(HostModel host, HostVcpu me) {
        me.inSpinLoop = true; // kvm_vcpu_set_in_spin_loop(me, true)
        if (!yieldOnSpin(host, me) || me.pcpu.current == me) {
            leaveSpinLoop(me);
        }
    }

    /**
     * The end of kvm_vcpu_on_spin() for {@code me}: out of the loop, and not eligible during
     * its next one (kvm_vcpu_set_dy_eligible(me, false)). A vCPU its own yield scheduled out
     * gets there when it runs again.
     */
    static void leaveSpinLoop(HostVcpu me) {
        me.inSpinLoop = false;
        me.dyEligible = false;
    }

    /**
     * kvm_vcpu_eligible_for_directed_yield() (CONFIG_HAVE_KVM_CPU_RELAX_INTERCEPT, which x86
     * selects): a vCPU that is itself inside kvm_vcpu_on_spin() is a candidate only every second
     * time it is considered, so two spinning vCPUs do not yield to each other back and forth.
     */
    static boolean eligibleForDirectedYield(HostVcpu v) {
        boolean eligible = !v.inSpinLoop || v.dyEligible;
        if (v.inSpinLoop) {
            v.dyEligible = !v.dyEligible;
        }
        return eligible;
    }

    /** The two passes of kvm_vcpu_on_spin() over the VM's vCPUs; true when a yield was made. */
    private boolean yieldOnSpin(HostModel host, HostVcpu me) {
        HostVcpu[] vcpus = host.vcpusOf(me.vm);
        int last = host.lastBoostedVcpu[me.vm];
        // "We approximate round-robin by starting at the last boosted VCPU": two passes.
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < vcpus.length; i++) {
                if (pass == 0 && i <= last) {
                    continue;
                } else if (pass == 1 && i > last) {
                    break;
                }
                HostVcpu v = vcpus[i];
                if (v == me || !(boost ? v.ready : v.preempted)) {
                    continue;
                }
                if (v.state == VcpuState.HALTED) {
                    continue; // kvm_vcpu_is_blocking() && !vcpu_dy_runnable()
                }
                // yield_to_kernel_mode: skip a vCPU preempted in user mode unless (since 52acd22faa1a)
                // an interrupt is pending for it (kvm_arch_dy_has_pending_interrupt(): a posted IPI).
                if (v.preempted && v.cpu.inUserMode() && !(boostUserMode && v.cpu.callFunctionPending())) {
                    continue;
                }
                if (!eligibleForDirectedYield(v)) {
                    continue;
                }
                if (host.yieldTo(me, v)) {
                    host.lastBoostedVcpu[me.vm] = i;
                    return true;
                }
            }
        }
        return false;
    }

    /** kvm_sched_yield(): KVM_HC_SCHED_YIELD from {@code me} naming {@code target}; false when no yield was made. */
    static boolean schedYield(HostModel host, HostVcpu me, HostVcpu target) {
        if (target == me || !target.ready) {
            return false;
        }
        return host.yieldTo(me, target);
    }
}
