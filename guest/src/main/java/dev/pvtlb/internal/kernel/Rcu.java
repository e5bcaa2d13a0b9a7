package dev.pvtlb.internal.kernel;

import dev.pvtlb.pvops.GuestKnobs;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.VmStat;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import dev.pvtlb.pvops.InjectedBug;

/**
 * A minimal RCU: call_rcu() callbacks run once a grace period has ended, i.e. once every CPU
 * has passed a quiescent state after the period began, in the RCU softirq of the CPU that
 * queued them ({@link RcuSoftirq}), which pays for them. Quiescent states are user-mode
 * execution, a context switch and idle (an extended quiescent state). A CPU with IRQs off,
 * such as one inside gup_fast(), is not quiescent: that is what makes RCU table freeing safe
 * against lockless walkers even when the flush did not interrupt them. With {@code rcu=preempt}
 * (CONFIG_PREEMPT_RCU) kernel code with IRQs on is outside every read-side critical section, so
 * only CPUs with IRQs off hold a grace period up: a table batch handed to call_rcu() before the
 * flush (inject=call-rcu-before-flush) can then be freed while remote TLBs still point at it.
 */
public final class Rcu {
    private final GuestKnobs knobs;
    private final VmStat vmstat;
    /** The guest's CPUs, and where each raises RCU_SOFTIRQ (its interrupt state), by CPU number. */
    private final Cpu[] cpus;
    private final IntFunction<CpuInterrupts> softirqs;
    /** rcu_data's dynticks, per CPU: in an extended quiescent state (idle in HLT), which no grace period waits for. */
    private final boolean[] extendedQs;
    private final CpuMask waitingFor;
    private List<Queued> current = new ArrayList<>();
    private List<Queued> next = new ArrayList<>();
    private boolean gpInProgress;

    Rcu(GuestKnobs knobs, VmStat vmstat, Cpu[] cpus, IntFunction<CpuInterrupts> softirqs) {
        this.knobs = knobs;
        this.vmstat = vmstat;
        this.cpus = cpus;
        this.softirqs = softirqs;
        this.extendedQs = new boolean[cpus.length];
        this.waitingFor = new CpuMask(cpus.length);
    }

    /** A callback and the CPU whose rcu_data holds it (where rcu_do_batch() will invoke it). */
    private record Queued(Cpu cpu, RcuCallback callback) {}

    /**
     * call_rcu() on {@code cpu}: {@code callback} runs in that CPU's RCU softirq once a grace
     * period has ended. The caller pays call_rcu()'s own cost (rcu.call.ns).
     */
    public void callRcu(Cpu cpu, RcuCallback callback) {
        if (knobs.bug == InjectedBug.RCU_GP_INSTANT) {
            // The planted bug frees at once, in the caller, as if no grace period were needed.
            vmstat.inc(Counter.RCU_GRACE_PERIODS);
            callback.invoke(cpu);
            return;
        }
        next.add(new Queued(cpu, callback));
        if (!gpInProgress) {
            startGracePeriod();
        }
    }

    public boolean gpInProgress() {
        return gpInProgress;
    }

    private void startGracePeriod() {
        List<Queued> t = current;
        current = next;
        next = t;
        gpInProgress = true;
        waitingFor.clearAll();
        boolean preempt = knobs.preemptRcu;
        for (Cpu c : cpus) {
            // CONFIG_PREEMPT_RCU: a CPU outside any read-side section (here: with IRQs on) reports
            // its quiescent state at its next scheduling-clock tick, taken to come at once.
            if (c.online() && !extendedQs[c.id()] && (!preempt || c.irqsDisabled())) {
                waitingFor.set(c.id());
            }
        }
        maybeEnd();
    }

    /** rcu_note_context_switch() / rcu_qs(): {@code cpu} passed a quiescent state. */
    public void quiescentState(Cpu cpu) {
        if (gpInProgress && !cpu.irqsDisabled() && waitingFor.test(cpu.id())) {
            waitingFor.clear(cpu.id());
            maybeEnd();
        }
    }

    private void maybeEnd() {
        if (!waitingFor.isEmpty()) {
            return;
        }
        gpInProgress = false;
        vmstat.inc(Counter.RCU_GRACE_PERIODS);
        List<Queued> done = current;
        current = new ArrayList<>();
        for (Queued q : done) {
            softirqs.apply(q.cpu().id()).rcuCallbackReady(q.callback());
        }
        if (!next.isEmpty()) {
            startGracePeriod();
        }
    }

    /** rcu_idle_enter() / rcu_idle_exit() on CPU {@code cpu}: it enters or leaves its extended quiescent state. */
    public void extendedQs(int cpu, boolean on) {
        extendedQs[cpu] = on;
    }

    /** Whether CPU {@code cpu} is in an extended quiescent state (idle in HLT). */
    public boolean inExtendedQs(int cpu) {
        return extendedQs[cpu];
    }

    public void reset() {
        java.util.Arrays.fill(extendedQs, false);
        current.clear();
        next.clear();
        gpInProgress = false;
        waitingFor.clearAll();
    }
}
