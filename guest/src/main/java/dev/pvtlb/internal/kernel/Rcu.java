package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;
import java.util.ArrayList;
import java.util.List;
import dev.pvtlb.pvops.InjectedBug;

/**
 * A minimal RCU: call_rcu() callbacks run once a grace period has ended, i.e. once every CPU
 * has passed a quiescent state after the period began. Quiescent states are user-mode
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
    private List<Runnable> current = new ArrayList<>();
    private List<Runnable> next = new ArrayList<>();
    private boolean gpInProgress;

    public Rcu(Kernel guest, int nrCpus) {
        this.guest = guest;
        this.waitingFor = new CpuMask(nrCpus);
    }

    /** call_rcu(): run {@code callback} after a grace period. */
    public void callRcu(Runnable callback) {
        if (guest.knobs().bug == InjectedBug.RCU_GP_INSTANT) {
            guest.vmstat().inc(Counter.RCU_GRACE_PERIODS);
            callback.run();
            return;
        }
        next.add(callback);
        if (!gpInProgress) {
            startGracePeriod();
        }
    }

    public boolean gpInProgress() {
        return gpInProgress;
    }

    private void startGracePeriod() {
        List<Runnable> t = current;
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
        List<Runnable> done = current;
        current = new ArrayList<>();
        for (Runnable r : done) {
            r.run();
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
