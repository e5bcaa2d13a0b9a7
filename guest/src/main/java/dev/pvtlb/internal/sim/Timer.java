package dev.pvtlb.internal.sim;

/**
 * An event that may be cancelled before it fires, as an hrtimer is by hrtimer_cancel(): a host's
 * slice timer voided when its pCPU switches vCPU early. A cancelled timer is gone from the run, not
 * a no-op left in the queue: it neither fires nor counts as a step, bounds no batch's horizon and
 * takes no part in a choice among events due at one instant. (Left in the queue as no-ops, the
 * voided slice timers of an overcommitted KVM run were about 68,000 of the 70,000 events pending,
 * and each poll paid for them.) Made by {@link Engine#timer}, cancelled by {@link Engine#cancel}.
 */
public final class Timer implements Event {
    private final Event action;
    /** The engine's reset count when it was queued ({@link Engine#reset} empties the queue). */
    private final long resets;
    /** Fired or cancelled; a timer still in the heap that is done was cancelled (the heap drops it when it surfaces). */
    private boolean done;

    Timer(Event action, long resets) {
        this.action = action;
        this.resets = resets;
    }

    long resets() {
        return resets;
    }

    /** Whether it fired or was cancelled: cancelling it now does nothing. */
    boolean done() {
        return done;
    }

    void markCancelled() {
        done = true;
    }

    @Override
    public void fire(Engine engine) {
        done = true;
        action.fire(engine);
    }

    @Override
    public String describe() {
        return "timer: " + action.describe();
    }
}
