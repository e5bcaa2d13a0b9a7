package dev.pvtlb.internal.kernel;

import java.util.ArrayDeque;

/**
 * A CPU's run queue (struct rq): the task it runs ({@code rq->curr}; none while its idle task
 * runs) and the tasks woken onto it or migrated to it that wait for the CPU, in order.
 */
public final class RunQueue {
    private Task current;
    /** The tasks waiting for this CPU, first to run first. */
    public final ArrayDeque<Task> queue = new ArrayDeque<>();

    /** The task running on the CPU, or null when its idle task runs. */
    public Task current() {
        return current;
    }

    public void current(Task t) {
        this.current = t;
    }

    /** A new run: no task here. */
    void clear() {
        current = null;
        queue.clear();
    }
}
