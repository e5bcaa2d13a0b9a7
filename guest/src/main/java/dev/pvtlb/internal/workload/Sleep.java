package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.TaskWakeup;

/** Blocks the task for a while (a timer wakes it on its own CPU); its CPU goes idle meanwhile. */
public final class Sleep implements Op {
    private final long ns;

    public Sleep(long ns) {
        this.ns = ns;
    }

    @Override
    public long run(KernelCpu cpu, Task task) {
        task.opDone();
        TaskWakeup.sleep(task, ns);
        return 0;
    }
}
