package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.sim.Event;
import dev.pvtlb.smp.CallFunction;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.IpiKind;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.CostPart;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.CpuTime;
import dev.pvtlb.stats.VmStat;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * One CPU's interrupt state: the IRQ-disable depth, the call-function vector (the one TLB
 * shootdown uses) with its call_single_queue, the reschedule vector, RCU_SOFTIRQ, and the MWAIT
 * monitor an idle x86 CPU waits on. Arrivals are events of the engine; an interrupt is taken at
 * a step boundary with IRQs on ({@link #takePending}), and one arriving while the CPU is halted
 * wakes it.
 */
public final class CpuInterrupts {
    private final InterruptibleCpu cpu;
    private final Engine engine;
    private final CpuTime cpuTime;
    private final VmStat vmstat;
    private final CostLedger ledger;
    private int irqOff;
    private boolean callFunctionPending;
    /** When the pending call-function IPI arrived (the first of those pending). */
    private long callFunctionPendingSince;
    /** call_single_queue: the csds senders queued here, run by the call-function handler. */
    final ArrayDeque<Csd> callSingleQueue = new ArrayDeque<>();
    /** The csds the call-function handler took off the queue (llist_del_all()) and has still to run. */
    final ArrayDeque<Csd> callFunctionBatch = new ArrayDeque<>();
    /** RCU_SOFTIRQ raised: callbacks this CPU queued whose grace period has ended, for rcu_do_batch(). */
    final ArrayDeque<RcuCallback> rcuReady = new ArrayDeque<>();
    private final Event ipiArrival = this::ipiArrived;
    private final Event reschedArrival = this::reschedArrived;
    private final Event pollWake = e -> wakeFromPolling();
    /** Who last sent this CPU an IPI or kicked it from a halt: the waker the host sees when the wake-up reaches it. */
    private Cpu waker;
    /** The handlers of the vectors (the IDT), set at boot by {@link #handlers}. */
    private KernelPath ipiHandler;
    private KernelPath reschedHandler;
    private KernelPath rcuSoftirq;

    /** {@code cpu}'s interrupt state; the interrupt entry's clock, CPU time, counters and cost ledger are the kernel's. */
    CpuInterrupts(InterruptibleCpu cpu, Engine engine, CpuTime cpuTime, VmStat vmstat, CostLedger ledger) {
        this.cpu = cpu;
        this.engine = engine;
        this.cpuTime = cpuTime;
        this.vmstat = vmstat;
        this.ledger = ledger;
    }

    /**
     * idt_setup_apic_and_irq_gates(), at boot: the call-function vector's handler, the reschedule
     * vector's, and RCU_SOFTIRQ's action (open_softirq()).
     */
    void handlers(KernelPath callFunction, KernelPath reschedule, KernelPath rcuSoftirq) {
        this.ipiHandler = callFunction;
        this.reschedHandler = reschedule;
        this.rcuSoftirq = rcuSoftirq;
    }

    public boolean disabled() {
        return irqOff > 0;
    }

    /** local_irq_disable() (nesting, like local_irq_save). */
    public void disable() {
        irqOff++;
    }

    /** local_irq_enable(): a pending interrupt is taken before the next step. */
    public void enable() {
        if (irqOff == 0) {
            throw new IllegalStateException("cpu" + cpu.id() + ": IRQs enabled twice");
        }
        irqOff--;
    }

    /**
     * The CPU whose IPI or kick last headed here (null: none yet): on a host, the vCPU thread whose
     * kvm_vcpu_kick() wakes this one, which the host scheduler's wake_affine() weighs.
     */
    public Cpu waker() {
        return waker;
    }

    /** {@code from} kicked this CPU out of a halt (KVM_HC_KICK_CPU). */
    public void wokenBy(Cpu from) {
        waker = from;
    }

    /** A call-function IPI has arrived and waits for IRQs to come on. */
    public boolean callFunctionPending() {
        return callFunctionPending;
    }

    /** Whether an interrupt would be taken now: a call-function IPI is pending and IRQs are on. */
    boolean callFunctionDeliverable() {
        return callFunctionPending && irqOff == 0;
    }

    /**
     * Queues a csd here: {@code func} to run on this CPU, {@code done} to run once it has
     * (csd_unlock). True when the queue was empty, i.e. the sender must IPI.
     */
    boolean queueCsd(Cpu from, CallFunction func, Consumer<Cpu> done) {
        boolean wasEmpty = callSingleQueue.isEmpty();
        callSingleQueue.add(new Csd(from, func, done));
        return wasEmpty;
    }

    /**
     * Schedules the IPI of {@code kind} {@code from} sent at {@code sentAt} to arrive at {@code time}
     * ({@code how}: how it travels, for a timeline).
     */
    public void scheduleArrival(String how, Cpu from, long sentAt, long time, IpiKind kind) {
        waker = from;
        cpuTime.flow(how, from.id(), sentAt, cpu.id(), time);
        engine.at(time, kind == IpiKind.RESCHEDULE ? reschedArrival : ipiArrival);
    }

    /** At {@code time}, the store that set TIF_NEED_RESCHED reaches this CPU's MWAIT monitor (see {@link IpiSender#wakeIdle}). */
    void schedulePollingWake(long time) {
        engine.at(time, pollWake);
    }

    /** MWAIT ends on the monitored store: an idle CPU goes back to its idle loop, which schedules the woken task; no interrupt. */
    private void wakeFromPolling() {
        if (cpu.isHalted()) {
            cpu.wake();
        }
    }

    /** A RESCHEDULE_VECTOR IPI: a woken task waits in the run queue; a halted CPU leaves HLT to run it. */
    private void reschedArrived(Engine e) {
        vmstat.inc(Counter.IPIS_RECEIVED);
        if (cpu.isHalted() && irqOff == 0) {
            cpu.call(reschedHandler);
            cpu.wake();
        }
    }

    private void ipiArrived(Engine e) {
        vmstat.inc(Counter.IPIS_RECEIVED);
        if (!callFunctionPending) {
            callFunctionPendingSince = e.now();
        }
        callFunctionPending = true;
        if (cpu.isBlocked() && irqOff == 0) {
            cpu.wake();
        }
    }

    /**
     * A callback this CPU queued with call_rcu() is ready: raise RCU_SOFTIRQ (an idle CPU leaves
     * its idle loop to run it, as the grace-period kthread's wake-up of rcu_core() makes it).
     */
    void rcuCallbackReady(RcuCallback cb) {
        rcuReady.add(cb);
        if (cpu.isHalted() && irqOff == 0) {
            cpu.wake();
        }
    }

    /**
     * At a step boundary at {@code now}: with IRQs on, the pending call-function interrupt (its
     * delivery latency booked) or else a raised RCU_SOFTIRQ starts on top of the interrupted path.
     */
    void takePending(long now) {
        if (callFunctionPending && irqOff == 0) {
            callFunctionPending = false;
            ledger.addNs(CostPart.IPI_DELIVERY, now - callFunctionPendingSince);
            cpu.call(ipiHandler);
        } else if (irqOff == 0 && !rcuReady.isEmpty() && cpu.top() != rcuSoftirq) {
            // The softirq runs at a step boundary with IRQs on, before the interrupted path resumes.
            cpu.call(rcuSoftirq);
        }
    }

    /** A new run on the same guest: IRQs on, nothing pending or queued. */
    void reset() {
        irqOff = 0;
        waker = null;
        callFunctionPending = false;
        callSingleQueue.clear();
        // A run that stopped inside the handler leaves a batch and the handler mid-way.
        callFunctionBatch.clear();
        ipiHandler.restart();
        rcuReady.clear();
    }
}
