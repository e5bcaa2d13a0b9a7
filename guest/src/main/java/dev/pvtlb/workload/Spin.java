package dev.pvtlb.workload;

import dev.pvtlb.sched.Op;
import dev.pvtlb.sched.Task;
import dev.pvtlb.smp.Cpu;

/**
 * User-mode computation that touches no memory the model tracks, in steps of at most
 * {@link #STEP_NS}: keeps a CPU busy (runnable, in its mm) without the cost of simulating
 * accesses.
 */
public final class Spin implements Op {
    public static final long STEP_NS = 1_000;
    private long remaining;

    public Spin(long ns) {
        this.remaining = ns;
    }

    @Override
    public long run(Cpu cpu, Task task) {
        long d = Math.min(STEP_NS, remaining);
        remaining -= d;
        if (remaining <= 0) {
            task.opDone();
        }
        return Math.max(1, d);
    }
}
