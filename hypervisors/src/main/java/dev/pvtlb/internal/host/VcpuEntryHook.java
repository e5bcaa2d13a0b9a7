package dev.pvtlb.internal.host;

/**
 * What a hypervisor does when it deschedules a vCPU and when it enters it again. Entry is two
 * steps, {@link #entryBegin} when the host picks the vCPU and {@link #entryEnd} one VM-entry
 * time later, right before guest code runs; work split across them can race with the guest.
 */
public interface VcpuEntryHook {
    /** The vCPU left its pCPU; {@code preempted}: still runnable (not halted). */
    default void descheduled(HostVcpu v, boolean preempted) {}

    default void entryBegin(HostVcpu v) {}

    default void entryEnd(HostVcpu v) {}

    VcpuEntryHook NONE = new VcpuEntryHook() {};
}
