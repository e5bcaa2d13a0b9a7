package dev.pvtlb.internal.host;

/** Where a vCPU is, as the host scheduler sees it. */
public enum VcpuState {
    /** On its pCPU, executing guest code. */
    RUNNING,
    /** Runnable but not on a pCPU: preempted by another vCPU (KVM marks it preempted in steal time). */
    RUNNABLE,
    /** Blocked after HLT in the guest's idle loop; not runnable until an interrupt or wake-up. */
    HALTED
}
