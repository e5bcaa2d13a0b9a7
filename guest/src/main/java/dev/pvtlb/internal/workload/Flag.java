package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.KernelCpu;

/**
 * A scenario's own synchronisation between tasks: {@link #raise()} as an operation sets it,
 * a program may wait for it by spinning (user-mode, 1 us at a time) until it is set. The model
 * is single-threaded, so this is plain state; it stands for whatever user-space signalling the
 * real program would use, without modelling that signalling's cost.
 */
public final class Flag {
    private boolean set;

    public boolean isSet() {
        return set;
    }

    /** An operation that sets the flag. */
    public Op raise() {
        return (KernelCpu cpu, Task task) -> {
            set = true;
            task.opDone();
            return 1;
        };
    }

    /** An operation that spins until the flag is set. */
    public Op await() {
        return (KernelCpu cpu, Task task) -> {
            if (set) {
                task.opDone();
                return 1;
            }
            return Spin.step(cpu);
        };
    }
}
