package dev.pvtlb.pvops;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.host.HypervisorFlush;
import dev.pvtlb.host.KvmHost;
import dev.pvtlb.host.KvmScheduling;
import dev.pvtlb.host.VcpuEvents;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuCondition;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.VmStat;

/**
 * What a backend is handed at {@link PvBackend#attach}: the booted guest kernel as the SPI sees
 * it, and the host it runs on. The model implements it; a backend keeps it for the ops it
 * installs. It is the only way from a backend into the model: the shipped backends use nothing
 * else.
 */
public interface BackendContext {
    /** The guest kernel's own knobs ({@code lazy}, {@code tableFree}, ...). */
    GuestKnobs knobs();

    /** Every knob's value, the backend's own included. */
    Knobs knobValues();

    /** Virtual time now, in ns since boot (for a backend that times its own work). */
    long nowNs();

    /** The guest's CPU topology (sockets, cores, threads). */
    Topology topology();

    /**
     * native_flush_tlb_multi() of this guest: count NR_TLB_REMOTE_FLUSH, then IPI the CPUs of
     * {@code mask} that need the flush, as bare metal does. For backends that fall back to it.
     */
    void nativeFlushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info);

    /**
     * A counter of the backend's own ({@code [a-z0-9_]+}), reported with the guest's counters
     * (in {@code Guest.vmstat()}, a run's report and its JSON) after the model's; the same name
     * gives the same counter, so attaching again after a reset keeps one.
     */
    VmStat.Own counter(String name);

    /**
     * The machine profile the guest booted with, overrides included: the figures a backend prices
     * its own work with (read them once, at attach).
     */
    Profile profile();

    /** The guest's CPUs: {@code cpu(i)} for i in 0 .. {@link #nrCpus()}-1. */
    Cpu cpu(int id);

    /** nr_cpu_ids. */
    int nrCpus();

    /** Adds {@code n} to one of the model's counters (a hypercall, a deferred flush, a broadcast invalidation). */
    void count(Counter counter, long n);

    /**
     * The targets native_flush_tlb_multi() would send {@code info} to, as a test on each CPU of the
     * mask (the guest's {@code lazy} policy: should_flush_tlb() unless tables were freed), or null
     * when every CPU of the mask is a target.
     */
    CpuCondition flushTargets(FlushTlbInfo info);

    /**
     * A paravirtual guest's IPIs (KVM_HC_SEND_IPI and HVCALL_SEND_IPI take a vCPU mask: one
     * hypercall per send; Xen's EVTCHNOP_send goes to one event channel: one per target with
     * {@code perTarget}). The host posts the interrupt; a target that is not running takes it when
     * it next runs. For {@link Attachment#withIpiDelivery}.
     */
    IpiDelivery hypercallIpi(boolean perTarget);

    /**
     * Puts this guest on a KVM host with {@code scheduling}'s mechanisms, telling {@code events}
     * about its vCPUs' threads. A co-guest (another VM of the scenario) joins its primary's host.
     */
    KvmHost kvmHost(VcpuEvents events, KvmScheduling scheduling);

    /** Puts this guest on a hypervisor that flushes vCPUs on its behalf (Xen, Hyper-V, PVM). */
    HypervisorFlush hypervisorFlush();
}
