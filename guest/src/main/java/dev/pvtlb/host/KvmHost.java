package dev.pvtlb.host;

import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.VcpuHost;

/** The KVM host a guest runs on, as its backend holds it ({@link dev.pvtlb.pvops.BackendContext#kvmHost}). */
public interface KvmHost {
    /** The host as the guest's kernel sees it (halts, kicks, spins): what the backend's attachment hands over. */
    VcpuHost vcpuHost();

    /**
     * kvm_sched_yield() (arch/x86/kvm/x86.c, the host side of KVM_HC_SCHED_YIELD): {@code from}
     * yields its pCPU to the vCPU of {@code target} if that one is ready and not running; false when
     * no yield was made.
     */
    boolean schedYield(Cpu from, Cpu target);
}
