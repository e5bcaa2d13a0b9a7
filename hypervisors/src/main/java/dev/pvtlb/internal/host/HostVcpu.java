package dev.pvtlb.internal.host;

import dev.pvtlb.internal.kernel.KernelCpu;

/**
 * One vCPU as the host schedules it: a vCPU of the modelled guest, or of another VM on the
 * same host. Other VMs' guests are not simulated: their vCPUs are CPU-bound and only compete
 * for pCPUs.
 */
public final class HostVcpu {
    /** The guest CPU, or null for a vCPU of another VM. */
    public final KernelCpu cpu;
    public final int vm;
    public final int index;
    final Pcpu pcpu;
    VcpuState state = VcpuState.RUNNABLE;
    /** The vCPU is being entered (VM entry in progress); it runs guest code after the entry ends. */
    boolean entering;

    HostVcpu(KernelCpu cpu, int vm, int index, Pcpu pcpu) {
        this.cpu = cpu;
        this.vm = vm;
        this.index = index;
        this.pcpu = pcpu;
    }

    /** Executing guest code right now (not preempted, halted, or still being entered). */
    public boolean executing() {
        return state == VcpuState.RUNNING && !entering;
    }

    @Override
    public String toString() {
        return cpu != null ? "vcpu" + cpu.id : "vm" + vm + ".vcpu" + index;
    }
}
