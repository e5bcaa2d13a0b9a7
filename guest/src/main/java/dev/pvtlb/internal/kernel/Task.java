package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.sim.Event;
import dev.pvtlb.internal.sim.SplitMix;
import dev.pvtlb.smp.KernelPath;
import java.util.BitSet;

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
    private final SplitMix random;
    /** Its user-mode path (UserMode.of), made when it is first scheduled in. */
    KernelPath userMode;
    /** Its sleep timer's expiry (hrtimer_wakeup()), made at its first timed sleep ({@link TaskWakeup#sleep}). */
    Event wakeUp;
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
    /** The CPUs of tasks spinning on this task as the mmap_lock's owner ({@link RwsemSpin}), none allocated until one spins. */
    private java.util.List<KernelCpu> spinners;

    public Task(int id, String name, Mm mm, KernelCpu cpu, BitSet allowed, Program program, SplitMix random) {
        this.id = id;
        this.name = name;
        this.mm = mm;
        this.cpu = cpu;
        this.allowed = allowed == null ? null : (BitSet) allowed.clone();
        this.program = program;
        this.random = random;
    }

    public Mm mm() {
        return mm;
    }

    /** {@code cpu} spins on this task as the owner of its mm's mmap_lock until {@link #wakeSpinners}. */
    void spunOnBy(KernelCpu cpu) {
        if (spinners == null) {
            spinners = new java.util.ArrayList<>(2);
        }
        if (!spinners.contains(cpu)) {
            spinners.add(cpu);
        }
    }

    /**
     * What ends rwsem_spin_on_owner() for the tasks spinning on this task: it released or
     * downgraded the mmap_lock, left its CPU, or its vCPU was descheduled. Each looks again.
     */
    void wakeSpinners() {
        if (spinners != null && !spinners.isEmpty()) {
            for (KernelCpu c : spinners) {
                c.wake();
            }
            spinners.clear();
        }
    }

    public KernelCpu cpu() {
        return cpu;
    }

    public Program program() {
        return program;
    }

    /** The task's own random stream (workload decisions), split from the run's seed. */
    public SplitMix random() {
        return random;
    }

    public TaskState state() {
        return state;
    }

    /** The current operation has finished. */
    public void opDone() {
        op = null;
    }

    /** How this task holds its mm's mmap_lock. */
    public MmapLockHold mmapLockHeld() {
        return mmapLockHeld;
    }

    /** schedule() with no timer: the task sleeps until {@link TaskWakeup#wakeFrom} (a lock's waker). */
    void block() {
        state = TaskState.SLEEPING;
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
