package dev.pvtlb.internal.kernel;

import java.util.ArrayDeque;

/**
 * A CPU's run queue (struct rq): the task it runs ({@code rq->curr}; none while its idle task
 * runs) and the tasks woken onto it or migrated to it that wait for the CPU, in order. It only
 * holds its tasks ({@code T}: {@link Task}); what the scheduler does with them is elsewhere.
 */
public final class RunQueue<T> {
    private T current;
    /** The tasks waiting for this CPU, first to run first. */
    public final ArrayDeque<T> queue = new ArrayDeque<>();

    /** The task running on the CPU, or null when its idle task runs. */
    public T current() {
        return current;
    }

    public void current(T t) {
        this.current = t;
    }

    /** A new run: no task here. */
    void clear() {
        current = null;
        queue.clear();
    }
}
