package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.TimeCategory;

/**
 * A task running in user mode: it takes its program's operations one after another. Between
 * operations it is preemptible: when its slice is used up and another task waits, it goes
 * back to the run queue. Returning to user mode is an RCU quiescent state.
 */
final class UserMode extends InternalPath implements UserSpacePath {
    private final Task task;

    private UserMode(Task task) {
        this.task = task;
    }

    /** {@code task}'s user-mode path, made at its first schedule-in: one per task, kept in the task. */
    static KernelPath of(Task task) {
        if (task.userMode == null) {
            task.userMode = new UserMode(task);
        }
        return task.userMode;
    }

    @Override
    public long step(KernelCpu cpu) {
        Kernel g = cpu.kernel();
        g.rcu().quiescentState(cpu);
        if (task.state == TaskState.SLEEPING) {
            // Asleep: on a timer (an op that is done) or on a lock (an op to retry when woken).
            return leave(cpu);
        }
        if (task.op == null) {
            if (!cpu.rq.queue.isEmpty() && g.engine().now() - task.sliceStart >= g.config().schedSliceNs()) {
                task.state = TaskState.RUNNABLE;
                cpu.rq.queue.add(task);
                return leave(cpu);
            }
            task.op = task.program().next(task);
            if (task.op == null) {
                task.state = TaskState.EXITED;
                task.mm().put();
                g.taskExited(task);
                return leave(cpu);
            }
        }
        return task.op.run(cpu, task);
    }

    /** schedule() away from this task; the idle loop picks the next one. */
    private long leave(KernelCpu cpu) {
        task.offCpuSince = cpu.kernel().engine().now();
        cpu.rq.current(null);
        task.wakeSpinners();
        cpu.ret();
        return 0;
    }

    @Override
    public TimeCategory category() {
        return TimeCategory.USER;
    }

    @Override
    public String name() {
        return "user:" + task.name;
    }
}
