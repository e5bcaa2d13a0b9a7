package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.sim.Event;
import dev.pvtlb.smp.KernelPath;
import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * {@code struct task_struct}, reduced to what TLB maintenance sees: the mm it runs in, the CPU
 * it runs on and the CPUs it may run on (its cpus_mask), its program and where it is in it.
 */
public final class Task {
    public final int id;
    public final String name;
    private final Mm mm;
    /** The CPU it runs on or is queued on: where it was spawned, unless the scheduler moved it (sched.balance). */
    private KernelCpu cpu;
    /**
     * p->cpus_mask: the CPUs the scheduler may move it to, set by sched_setaffinity() (taskset,
     * numactl, pthread_attr_setaffinity_np); null for every CPU, as a task is born.
     */
    private final BitSet allowed;
    private final Program program;
    private final SplittableRandom random;
    /** Its user-mode path (UserMode.of), made when it is first scheduled in. */
    KernelPath userMode;
    private final Event wakeUp;
    TaskState state = TaskState.RUNNABLE;
    Op op;
    long sliceStart;
    /** When it last left its CPU (slept, was preempted or yielded): how cache-cold it is for can_migrate_task(). */
    long offCpuSince;
    /** How this task holds its mm's mmap_lock now, and how it asked for it while it sleeps on it. */
    MmapLockHold mmapLockHeld = MmapLockHold.NONE;
    MmapLockHold mmapLockWanted = MmapLockHold.NONE;
    /** Spinning for the mmap_lock (rwsem_optimistic_spin): the next attempt may steal it. */
    boolean mmapLockSpinning;

    public Task(int id, String name, Mm mm, KernelCpu cpu, BitSet allowed, Program program, SplittableRandom random) {
        this.id = id;
        this.name = name;
        this.mm = mm;
        this.cpu = cpu;
        this.allowed = allowed == null ? null : (BitSet) allowed.clone();
        this.program = program;
        this.random = random;
        this.wakeUp = e -> wake();
    }

    public Mm mm() {
        return mm;
    }

    public KernelCpu cpu() {
        return cpu;
    }

    public Program program() {
        return program;
    }

    /** The task's own random stream (workload decisions), split from the run's seed. */
    public SplittableRandom random() {
        return random;
    }

    public TaskState state() {
        return state;
    }

    /** The current operation has finished. */
    public void opDone() {
        op = null;
    }

    /** Puts the task to sleep for {@code ns} of virtual time, from the current step. */
    public void sleep(long ns) {
        state = TaskState.SLEEPING;
        cpu.kernel().engine().at(cpu.kernel().engine().now() + ns, wakeUp);
    }

    /** How this task holds its mm's mmap_lock. */
    public MmapLockHold mmapLockHeld() {
        return mmapLockHeld;
    }

    /** schedule() with no timer: the task sleeps until {@link #wakeFrom} (a lock's waker). */
    void block() {
        state = TaskState.SLEEPING;
    }

    /**
     * try_to_wake_up() from {@code waker}: the task goes to its CPU's run queue; a CPU halted in
     * its idle loop is sent a reschedule IPI. Returns what the waker pays.
     */
    long wakeFrom(KernelCpu waker) {
        if (state != TaskState.SLEEPING) {
            return 0;
        }
        if (cpu.rq.current() == this) {
            // Still on its CPU, not yet scheduled out (ttwu_runnable(): p->on_rq): it just goes on.
            state = TaskState.RUNNING;
            return 0;
        }
        state = TaskState.RUNNABLE;
        placeOnWake();
        cpu.rq.queue.add(this);
        if (cpu != waker && cpu.isHalted()) {
            return cpu.kernel().ipis().wakeIdle(waker, cpu);
        }
        return 0;
    }

    /** try_to_wake_up() on the task's own CPU (a local timer, no IPI). */
    void wake() {
        if (state != TaskState.SLEEPING) {
            return;
        }
        if (cpu.rq.current() == this) {
            // Not yet scheduled out (its vCPU was preempted before it left): ttwu_runnable(),
            // it just goes on, as in wakeFrom(); queueing it would run it twice.
            state = TaskState.RUNNING;
            return;
        }
        state = TaskState.RUNNABLE;
        KernelCpu timerCpu = cpu;
        placeOnWake();
        cpu.rq.queue.add(this);
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
    private void placeOnWake() {
        Kernel g = cpu.kernel();
        if (!g.knobs().guestBalanceIdle) {
            return;
        }
        KernelCpu target = GuestBalance.selectIdleSibling(g, this, cpu);
        if (target != cpu) {
            moveTo(target);
            g.vmstat().inc(dev.pvtlb.stats.Counter.MIGRATIONS);
        }
    }

    /** Whether its affinity lets it run on {@code c} (cpumask_test_cpu(cpu, p->cpus_ptr)). */
    boolean allowedOn(KernelCpu c) {
        return allowed == null || allowed.get(c.id);
    }

    /** set_task_cpu(): the task runs on {@code c} from now on (the caller queues it there). */
    void moveTo(KernelCpu c) {
        cpu = c;
    }

    @Override
    public String toString() {
        return name;
    }
}
