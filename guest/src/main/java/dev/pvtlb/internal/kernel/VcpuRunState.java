package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.stats.CpuTime;
import dev.pvtlb.stats.TimeCategory;

/**
 * Whether the host runs a guest CPU's vCPU: a vCPU only executes while the host has it on some
 * pCPU. Descheduled, it runs no step (the step that came due parks until the host resumes it,
 * and that wait is the guest's steal time), and a busy-wait it was in counts as stolen from the
 * deschedule on. Also the explorer's hook that lets the host take the pCPU after a chosen step.
 */
public final class VcpuRunState {
    private final VcpuExecution cpu;
    private final Engine engine;
    private final CpuTime cpuTime;
    /** What the guest's paravirt spinlock does when a waiter's vCPU is descheduled (set at boot, see {@link #onPreempt}). */
    private Runnable preempted = () -> {};
    private boolean running = true;
    private boolean parked;
    private long parkedSince;
    /** When the host last descheduled this vCPU (-1: it runs), and its descheduled time before that. */
    private long descheduledAt = -1;
    private long descheduledBefore;
    /** Steps left before {@link #stepPreemption} runs (0: none armed). */
    private int stepsToPreemption;
    private Runnable stepPreemption;

    VcpuRunState(VcpuExecution cpu, Engine engine, CpuTime cpuTime) {
        this.cpu = cpu;
        this.engine = engine;
        this.cpuTime = cpuTime;
    }

    /**
     * At boot: {@code action} runs each time the host deschedules this running vCPU, after its
     * spin so far is booked (a queued spinlock's waiter behind it may halt early, pv_wait_early).
     */
    void onPreempt(Runnable action) {
        this.preempted = action;
    }

    /** Whether the host runs this vCPU now. */
    public boolean running() {
        return running;
    }

    /** A step came due while the vCPU is descheduled: it waits for {@link #resume} from {@code now}. */
    void park(long now) {
        parked = true;
        parkedSince = now;
    }

    /** The host deschedules this vCPU: it runs no step until {@link #resume}. */
    public void preempt() {
        if (running) {
            descheduledAt = engine.now();
            if (cpu.busyWaiting()) {
                cpu.bookBlocked(descheduledAt); // the spin so far; from here its vCPU's time is stolen
            }
            preempted.run();
        }
        running = false;
        cpu.executionMayHaveChanged();
    }

    /** The host runs this vCPU again; time spent parked counts as stolen. */
    public void resume() {
        long now = engine.now();
        if (!running && cpu.busyWaiting()) {
            cpu.bookBlocked(now); // stolen while it spun descheduled
        }
        if (!running && descheduledAt >= 0) {
            descheduledBefore += now - descheduledAt;
            descheduledAt = -1;
        }
        running = true;
        if (parked) {
            parked = false;
            cpuTime.book(cpu.id(), TimeCategory.STOLEN, parkedSince, now);
            cpu.stepAt(now);
        }
        cpu.executionMayHaveChanged();
    }

    /**
     * The virtual time this vCPU has spent descheduled by the host so far, the current stretch
     * included: what a loop that counts its turns (qspinlock_paravirt.h's SPIN_THRESHOLD) did not
     * count.
     */
    public long descheduledNs() {
        return descheduledBefore + (descheduledAt < 0 ? 0 : engine.now() - descheduledAt);
    }

    /**
     * The host's hook for preempting this vCPU at a step the explorer chose: {@code action} runs
     * when the {@code steps}-th step from now has ended (before the vCPU's next step, or just after).
     */
    public void preemptAfterSteps(int steps, Runnable action) {
        stepsToPreemption = steps;
        stepPreemption = action;
    }

    /** A step ends at {@code end}: if it is the chosen one, the host's action is queued for then, before the next step. */
    void stepEnded(long end) {
        if (stepsToPreemption > 0 && --stepsToPreemption == 0) {
            Runnable r = stepPreemption;
            stepPreemption = null;
            engine.at(end, ev -> r.run());
        }
    }

    /** Before a guest reset's exact rerun. */
    void clear() {
        parkedSince = 0;
    }

    /** A new run: running, never descheduled, no preemption armed. */
    void reset() {
        running = true;
        parked = false;
        descheduledAt = -1;
        descheduledBefore = 0;
        stepsToPreemption = 0;
        stepPreemption = null;
    }
}
