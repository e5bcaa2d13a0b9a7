package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;
import java.util.ArrayList;
import java.util.List;
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
    private final Kernel guest;
    private final CpuMask waitingFor;
    private List<Queued> current = new ArrayList<>();
    private List<Queued> next = new ArrayList<>();
    private boolean gpInProgress;

    public Rcu(Kernel guest, int nrCpus) {
        this.guest = guest;
        this.waitingFor = new CpuMask(nrCpus);
    }

    /** A callback and the CPU whose rcu_data holds it (where rcu_do_batch() will invoke it). */
    private record Queued(KernelCpu cpu, RcuCallback callback) {}

    /**
     * call_rcu() on {@code cpu}: {@code callback} runs in that CPU's RCU softirq once a grace
     * period has ended. The caller pays call_rcu()'s own cost (rcu.call.ns).
     */
    public void callRcu(KernelCpu cpu, RcuCallback callback) {
        if (guest.knobs().bug == InjectedBug.RCU_GP_INSTANT) {
            // The planted bug frees at once, in the caller, as if no grace period were needed.
            guest.vmstat().inc(Counter.RCU_GRACE_PERIODS);
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
        boolean preempt = guest.knobs().preemptRcu;
        for (KernelCpu c : guest.cpus()) {
            // CONFIG_PREEMPT_RCU: a CPU outside any read-side section (here: with IRQs on) reports
            // its quiescent state at its next scheduling-clock tick, taken to come at once.
            if (c.online() && !c.inExtendedQs() && (!preempt || c.irqsDisabled())) {
                waitingFor.set(c.id);
            }
        }
        maybeEnd();
    }

    /** rcu_note_context_switch() / rcu_qs(): {@code cpu} passed a quiescent state. */
    public void quiescentState(KernelCpu cpu) {
        if (gpInProgress && !cpu.irqsDisabled() && waitingFor.test(cpu.id)) {
            waitingFor.clear(cpu.id);
            maybeEnd();
        }
    }

    private void maybeEnd() {
        if (!waitingFor.isEmpty()) {
            return;
        }
        gpInProgress = false;
        guest.vmstat().inc(Counter.RCU_GRACE_PERIODS);
        List<Queued> done = current;
        current = new ArrayList<>();
        for (Queued q : done) {
            q.cpu().interrupts().rcuCallbackReady(q.callback());
        }
        if (!next.isEmpty()) {
            startGracePeriod();
        }
    }

    public void reset() {
        current.clear();
        next.clear();
        gpInProgress = false;
        waitingFor.clearAll();
    }
}
