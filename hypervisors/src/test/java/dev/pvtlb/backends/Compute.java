package dev.pvtlb.backends;

import dev.pvtlb.sched.Op;
import dev.pvtlb.sched.Task;
import dev.pvtlb.smp.Cpu;

/** User-mode computation without memory accesses, in 10 us steps: keeps a CPU busy in its mm. */
final class Compute implements Op {
    private static final long STEP_NS = 10_000;
    private long remaining;

    Compute(long ns) {
        this.remaining = ns;
    }

    @Override
    public long run(Cpu cpu, Task task) {
        long d = Math.min(STEP_NS, remaining);
        remaining -= d;
        if (remaining == 0) {
            task.opDone();
        }
        return d;
    }
}
