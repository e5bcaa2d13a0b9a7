package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.internal.kernel.KernelCpu;

/**
 * User-mode computation for a duration chosen at a choice point (DELAY) among {@code points}
 * evenly spaced values in [min, max]: lets the explorer shift one CPU's activity against
 * another's, as real timing noise would.
 */
public final class Delay implements Op {
    private final long min;
    private final long max;
    private final int points;
    private Spin spin;

    public Delay(long minNs, long maxNs, int points) {
        this.min = minNs;
        this.max = maxNs;
        this.points = points;
    }

    @Override
    public long run(KernelCpu cpu, Task task) {
        if (spin == null) {
            long ns = cpu.kernel().engine().chooseInRange(ChoicePoint.DELAY, min, max, points);
            if (ns <= 0) {
                task.opDone();
                return 1;
            }
            spin = new Spin(ns);
        }
        return spin.run(cpu, task);
    }
}
