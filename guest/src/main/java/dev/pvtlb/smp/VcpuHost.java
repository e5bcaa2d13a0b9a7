package dev.pvtlb.smp;

/**
 * What the host model needs to hear from a vCPU: that it halted (HLT in the idle loop: a VM
 * exit, and the vCPU is no longer runnable) and that something woke a halted vCPU (an
 * interrupt or a wake-up: it becomes runnable and waits for its pCPU). Bare metal has none.
 */
public interface VcpuHost {
    void halted(Cpu vcpu);

    void kicked(Cpu vcpu);
}
