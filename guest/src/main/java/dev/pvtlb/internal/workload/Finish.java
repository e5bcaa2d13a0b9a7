package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;

/**
 * When a workload's tasks ended: wraps each task's program and records the virtual time of the
 * first operation and of the last exit, so throughput metrics divide by the benchmark's own
 * elapsed time (not by RCU callbacks or timers that run on after it).
 */
public final class Finish {
    private long start = -1;
    private long end;
    private int running;

    /** {@code p} wrapped so that its start and exit are recorded. */
    public Program track(Program p) {
        running++;
        return new Program() {
            private boolean started;
            private boolean ended;

            @Override
            public Op next(Task task) {
                long now = task.cpu().kernel().engine().now();
                if (!started) {
                    started = true;
                    if (start < 0 || now < start) {
                        start = now;
                    }
                }
                Op op = ended ? null : p.next(task);
                if (op == null && !ended) {
                    ended = true;
                    running--;
                    end = Math.max(end, now);
                }
                return op;
            }
        };
    }

    /** Virtual time of the first operation of any tracked program, or -1 before it. */
    public long startNs() {
        return start;
    }

    /** Whether every tracked program has exited. */
    public boolean done() {
        return running == 0;
    }

    /** Elapsed virtual time from the first operation to the last exit, in ns (at least 1). */
    public long elapsedNs() {
        return Math.max(1, end - Math.max(0, start));
    }

    public double elapsedS() {
        return elapsedNs() / 1e9;
    }
}
