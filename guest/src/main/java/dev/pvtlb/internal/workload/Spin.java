package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.KernelCpu;

/**
 * User-mode computation that touches no memory the model tracks, in steps of at most the
 * profile's model.spin.step.ns (or a coarser step given): keeps a CPU busy (runnable, in its mm)
 * without the cost of simulating accesses.
 */
public final class Spin implements Op {
    /** A step of 0: the profile's model.spin.step.ns. */
    private final long stepNs;
    private long remaining;

    public Spin(long ns) {
        this.remaining = ns;
        this.stepNs = 0;
    }

    /** Long computations take coarser steps: fewer events, the same CPU time. */
    public Spin(long ns, long stepNs) {
        this.remaining = ns;
        this.stepNs = Math.max(1, stepNs);
    }

    /** One step of a spin-wait on {@code cpu}: model.spin.step.ns. */
    public static long step(KernelCpu cpu) {
        return cpu.kernel().costs().spinStepNs;
    }

    @Override
    public long run(KernelCpu cpu, Task task) {
        long d = Math.min(stepNs > 0 ? stepNs : step(cpu), remaining);
        remaining -= d;
        if (remaining <= 0) {
            task.opDone();
        }
        return Math.max(1, d);
    }
}
