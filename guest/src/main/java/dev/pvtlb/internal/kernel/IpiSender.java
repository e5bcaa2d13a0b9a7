package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.smp.IpiKind;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.VmStat;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * How the guest kernel interrupts its other CPUs: the IPIs of smp_call_function_many_cond() and
 * smp_send_reschedule(), sent through the backend's delivery (the APIC, a paravirtual send-IPI
 * hypercall, an event channel), and the wake-up of an idle CPU that needs none on x86 bare metal.
 */
final class IpiSender {
    private final Engine engine;
    private final VmStat vmstat;
    /** Idle CPUs wait in MWAIT on their thread flags (x86 bare metal): a wake-up needs no IPI ({@link #wakeIdle}). */
    private final boolean idlePolls;
    /** The APIC's delivery ({@link BareMetalIpi}): the guest's own, unless the backend brings one. */
    private final Supplier<IpiDelivery> apic;
    private IpiDelivery delivery;
    /** Each CPU's lines (its thread flags) and interrupt state (its MWAIT monitor), by CPU number. */
    private final IntFunction<CpuLines> lines;
    private final IntFunction<CpuInterrupts> interrupts;

    IpiSender(Engine engine, VmStat vmstat, boolean idlePolls, Supplier<IpiDelivery> apic, IntFunction<CpuLines> lines,
              IntFunction<CpuInterrupts> interrupts) {
        this.engine = engine;
        this.vmstat = vmstat;
        this.idlePolls = idlePolls;
        this.apic = apic;
        this.delivery = apic.get();
        this.lines = lines;
        this.interrupts = interrupts;
    }

    /** The backend's delivery, from its attachment on (null: the APIC's, {@link BareMetalIpi}). */
    void delivery(IpiDelivery d) {
        this.delivery = d != null ? d : apic.get();
    }

    /**
     * Wakes {@code target}, halted in its idle loop, to run a task queued on it (resched_curr(),
     * ttwu_queue_wakelist()). On x86 bare metal the idle loop waits in MWAIT on its thread flags
     * with TIF_POLLING_NRFLAG set (mwait_idle_with_hints(), used by intel_idle and by acpi_idle's
     * FFH states), so set_nr_and_not_polling() / set_nr_if_polling() find it polling: the store of
     * TIF_NEED_RESCHED ends the MWAIT and no IPI is sent (the tracepoint
     * sched_wake_idle_without_ipi). A guest idles in HLT (KVM, Xen, Hyper-V and PVM expose no
     * MWAIT to it by default) and arm64 in WFI, neither polling: a reschedule IPI. As with HLT, the
     * model charges no C-state exit latency. Returns what the waker pays.
     */
    long wakeIdle(Cpu from, Cpu target) {
        if (!idlePolls) {
            // smp_send_reschedule(): on arrival the target takes sysvec_reschedule_ipi and leaves HLT.
            vmstat.inc(Counter.RESCHEDULE_IPIS);
            return delivery.send(from, new Cpu[] {target}, 1, IpiKind.RESCHEDULE);
        }
        long now = engine.now();
        long cost = lines.apply(from.id()).write(lines.apply(target.id()).idleFlags, now);
        interrupts.apply(target.id()).schedulePollingWake(now + cost);
        vmstat.inc(Counter.WAKE_IDLE_WITHOUT_IPI);
        return cost;
    }

    /**
     * The IPIs of one smp_call_function_many_cond(). {@code single}: the call takes the
     * single-target path, arch_send_call_function_single_ipi(), not arch_send_call_function_ipi_mask():
     * since the concurrent-flush series (Nadav Amit, "smp: Run functions concurrently in
     * smp_call_function_many_cond()", 5.13) when one IPI goes out; before it, when the call has one
     * target (the fast path to smp_call_function_single()).
     */
    long callFunction(Cpu from, Cpu[] targets, int count, boolean single) {
        return delivery.send(from, targets, count, single ? IpiKind.CALL_FUNCTION_SINGLE : IpiKind.CALL_FUNCTION_MASK);
    }
}
