package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.KernelCpu;

/**
 * User-mode computation that touches no memory the model tracks, in steps of at most
 * {@link #STEP_NS} (or a coarser step given): keeps a CPU busy (runnable, in its mm) without
 * the cost of simulating accesses.
 */
public final class Spin implements Op {
    public static final long STEP_NS = 1_000;
    private final long stepNs;
    private long remaining;

    public Spin(long ns) {
        this(ns, STEP_NS);
    }

    /** Long computations take coarser steps: fewer events, the same CPU time. */
    public Spin(long ns, long stepNs) {
        this.remaining = ns;
        this.stepNs = Math.max(1, stepNs);
    }

    @Override
    public long run(KernelCpu cpu, Task task) {
        long d = Math.min(stepNs, remaining);
        remaining -= d;
        if (remaining <= 0) {
            task.opDone();
        }
        return Math.max(1, d);
    }
}
