package dev.pvtlb.internal.host;

import dev.pvtlb.host.KvmScheduling;

/**
 * What KVM does with a vCPU that spins (virt/kvm/kvm_main.c, arch/x86/kvm/vmx/vmx.c): the
 * pause-loop exit after the PLE window (handle_pause(), grow_ple_window()) and
 * kvm_vcpu_on_spin()'s directed yield to another vCPU of the same VM; and the host side of
 * KVM_HC_SCHED_YIELD (kvm_sched_yield(), arch/x86/kvm/x86.c, commit 715062970f37).
 *
 * @param mechanisms which of KVM's mechanisms the host has (the kvm backend's knobs)
 */
public record KvmSpin(KvmScheduling mechanisms) {
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
                if (v == me || !(mechanisms.boost() ? v.ready : v.preempted)) {
                    continue;
                }
                if (v.state == VcpuState.HALTED) {
                    continue; // kvm_vcpu_is_blocking() && !vcpu_dy_runnable()
                }
                // yield_to_kernel_mode: skip a vCPU preempted in user mode unless (since 52acd22faa1a)
                // an interrupt is pending for it (kvm_arch_dy_has_pending_interrupt(): a posted IPI).
                if (v.preempted && v.cpu.inUserMode() && !(mechanisms.boostUserMode() && v.cpu.interrupts().callFunctionPending())) {
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
