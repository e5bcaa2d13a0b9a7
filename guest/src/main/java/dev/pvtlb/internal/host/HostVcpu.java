package dev.pvtlb.internal.host;

import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.sim.Timer;

/**
 * One vCPU as the host schedules it: a vCPU of the modelled guest, or of another VM on the
 * same host. Another VM's vCPUs are CPU-bound threads that only compete for pCPUs, unless that
 * VM is a co-guest running a workload of its own (scenario key {@code others=same}). Besides its state it carries what the host's fair scheduler keeps of a task
 * ({@code sched_entity}: virtual runtime, deadline, lag) and what KVM keeps of a vCPU
 * ({@code vcpu->preempted}, {@code vcpu->ready}, the PLE window).
 */
public final class HostVcpu {
    /**
     * The guest CPU: of the primary guest (VM 0) or of a co-guest that joined (HostModel.attach());
     * null for a vCPU of another VM that is a CPU-bound thread.
     */
    public KernelCpu cpu;
    public final int vm;
    public final int index;
    /** The pCPU whose run queue holds it (changes only with host.balance=idle). */
    Pcpu pcpu;
    /** When it last left its pCPU (preempted, halted or yielding): can_migrate_task()'s task_hot() looks at it. */
    long offCpuSince;
    VcpuState state = VcpuState.RUNNABLE;
    /** The vCPU is being entered (VM entry in progress); it runs guest code after the entry ends. */
    boolean entering;

    /** se->vruntime: ns run on its pCPU (every vCPU thread has the same weight, nice 0). */
    long vruntime;
    /** se->deadline: vruntime when picked plus the slice it was given. */
    long deadline;
    /** se->vlag when it blocked in HLT: how far its pCPU's queue was ahead of it, within one slice. */
    long lag;
    /** KVM's vcpu->preempted: scheduled out while runnable (kvm_sched_out()), cleared on kvm_sched_in(). */
    boolean preempted;
    /** KVM's vcpu->ready: as preempted, and also set by kvm_vcpu_wake_up() (commit d73eb57b80b9). */
    boolean ready;
    /** The vCPU's current PLE window (vmx->ple_window), reset to the base on sched-in. */
    long pleWindowNs;
    /** The PLE timer of its last spin (a pause-loop exit when its window passes), cancelled when that spin ends; null before any. */
    Timer pleTimer;
    /**
     * vcpu->spin_loop.in_spin_loop: inside kvm_vcpu_on_spin(). A vCPU whose directed yield
     * scheduled it out stays inside until it runs again (yield_to() calls schedule() before
     * kvm_vcpu_on_spin() returns).
     */
    boolean inSpinLoop;
    /** vcpu->spin_loop.dy_eligible: while in a spin loop, a candidate every second time it is considered. */
    boolean dyEligible;
    /** Halted, but the host still polls on its pCPU for a wake-up (halt_poll_ns). */
    boolean polling;
    long pollGen;
    /** vcpu->halt_poll_ns: how long the host polls at its next halt ({@link HaltPolling}); 0 when created. */
    long haltPollNs;
    /** When its current halt began (kvm_vcpu_block()'s start), or -1 while it is not halted. */
    long haltedAt = -1;

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
