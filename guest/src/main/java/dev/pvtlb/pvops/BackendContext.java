package dev.pvtlb.pvops;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.VmStat;

/**
 * What a backend is handed at {@link PvBackend#attach}: the booted guest kernel as the SPI sees
 * it. The model implements it; a backend keeps it for the ops it installs.
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
}
