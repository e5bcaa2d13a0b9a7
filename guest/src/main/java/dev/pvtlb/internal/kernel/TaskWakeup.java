package dev.pvtlb.internal.kernel;

import dev.pvtlb.stats.Counter;

/**
 * A task's timed sleep and its wake-up: schedule_hrtimeout(), whose timer's expiry
 * (hrtimer_wakeup()) wakes the task on its own CPU, and try_to_wake_up() from a lock's waker. A
 * woken task goes to its CPU's run queue, after select_task_rq_fair() may have moved it to an
 * idle CPU of its LLC ({@code sched.balance=idle}, {@link GuestBalance}); a CPU halted in its idle
 * loop is sent a reschedule IPI or has its polled flags written ({@link IpiSender#wakeIdle}).
 */
public final class TaskWakeup {
    private TaskWakeup() {
    }

    /** Puts {@code t} to sleep for {@code ns} of virtual time, from the current step. */
    public static void sleep(Task t, long ns) {
        t.state = TaskState.SLEEPING;
        if (t.wakeUp == null) {
            t.wakeUp = e -> wake(t);
        }
        Kernel g = t.cpu().kernel();
        g.engine().at(g.engine().now() + ns, t.wakeUp);
    }

    /**
     * try_to_wake_up() of {@code t} from {@code waker}: the task goes to its CPU's run queue; a CPU
     * halted in its idle loop is sent a reschedule IPI. Returns what the waker pays.
     */
    static long wakeFrom(Task t, KernelCpu waker) {
        if (t.state != TaskState.SLEEPING) {
            return 0;
        }
        if (t.cpu().rq.current() == t) {
            // Still on its CPU, not yet scheduled out (ttwu_runnable(): p->on_rq): it just goes on.
            t.state = TaskState.RUNNING;
            return 0;
        }
        t.state = TaskState.RUNNABLE;
        placeOnWake(t);
        KernelCpu cpu = t.cpu();
        cpu.rq.queue.add(t);
        if (cpu != waker && cpu.isHalted()) {
            return cpu.kernel().ipis().wakeIdle(waker, cpu);
        }
        return 0;
    }

    /** try_to_wake_up() of {@code t} on its own CPU (a local timer, no IPI). */
    static void wake(Task t) {
        if (t.state != TaskState.SLEEPING) {
            return;
        }
        if (t.cpu().rq.current() == t) {
            // Not yet scheduled out (its vCPU was preempted before it left): ttwu_runnable(),
            // it just goes on, as in wakeFrom(); queueing it would run it twice.
            t.state = TaskState.RUNNING;
            return;
        }
        t.state = TaskState.RUNNABLE;
        KernelCpu timerCpu = t.cpu();
        placeOnWake(t);
        KernelCpu cpu = t.cpu();
        cpu.rq.queue.add(t);
        if (cpu == timerCpu) {
            cpu.wake();
        } else if (cpu.isHalted()) {
            // Woken onto another CPU by the timer's CPU: the reschedule IPI (ttwu_queue), or the
            // store to a polling idle CPU's flags, whose cost falls in the timer interrupt, which
            // the model does not charge.
            cpu.kernel().ipis().wakeIdle(timerCpu, cpu);
        }
    }

    /** select_task_rq_fair() at wake-up, with sched.balance=idle: the task may move to an idle CPU of its LLC. */
    private static void placeOnWake(Task t) {
        Kernel g = t.cpu().kernel();
        if (!g.knobs().guestBalanceIdle) {
            return;
        }
        KernelCpu target = GuestBalance.selectIdleSibling(g, t, t.cpu());
        if (target != t.cpu()) {
            t.moveTo(target);
            g.vmstat().inc(Counter.MIGRATIONS);
        }
    }
}
