package dev.pvtlb.internal.sim;

import dev.pvtlb.model.ChoicePoint;

/**
 * Single-threaded discrete-event engine in virtual nanoseconds (DESIGN.md rules 1 and 2).
 *
 * <p>Each event is one atomic step of the model. When several events are due at the same
 * instant, their order is a {@link ChoicePoint#ORDER} choice, so a schedule explorer can try
 * every interleaving and a seed reproduces one exactly.
 *
 * <p>{@link #horizon()} tells a batch of memory accesses how far it may run before it must
 * yield: up to the next event anywhere, plus an optional quantum. A quantum of 0 is exact
 * (nothing another CPU does can be missed); a positive quantum lets batches run a little
 * ahead, as quantum-based parallel simulators do, trading timing precision for speed.
 */
public final class Engine {
    /**
     * The watchdog's bound on steps at one virtual instant. Every step of a CPU that does work
     * costs time, and a zero-cost step (a return, a path switch) is followed by one that does;
     * so the steps at one instant are a few per event due then, a few thousand even with
     * 4096 vCPUs lined up. A step that costs 0 and comes back forever (a kernel path that never
     * moves on) would spin here without end: past this many steps the run stops with a
     * {@link dev.pvtlb.model.NoProgressException} naming the event (a CPU and its kernel path). About
     * a second of the real machine's time; one compare per step otherwise.
     */
    public static final long MAX_STEPS_PER_INSTANT = 1L << 24;

    private final EventQueue queue = new EventQueue();
    private final long quantum;
    private Chooser chooser;
    private long now;
    private long steps;
    /** Steps run since the clock last advanced (the watchdog's count). */
    private long stepsThisInstant;
    private boolean stopped;
    /** Set by {@link #endRun}: the run is over though events remain. */
    private boolean ended;
    /*
     * The events due at the current instant, drained from the heap in FIFO order. Keeping them
     * here, rather than polling every tie and re-adding all but the chosen one, makes a step
     * with n ties cost O(n) moves instead of O(n log n) heap operations: with 1024 vCPUs whose
     * steps line up, that re-adding dominated the run.
     */
    private Event[] ties = new Event[8];
    private int tieCount;
    /*
     * The next event, held outside the heap while it is strictly earlier than everything in it:
     * a CPU's step mostly schedules the same CPU's next step before anything else is due, and
     * taking it from here skips a heap insertion and removal per step (the heap's operations were
     * about a third of gup-fast-vs-free's JFR samples). It keeps the FIFO sequence number the
     * heap would have given it, and goes into the heap with that number when anything is added
     * at or before its time, so the order of events, ties and ORDER choices is the heap's own.
     */
    private Event soon;
    private long soonTime;
    private long soonSeq;
    /** How many times {@link #reset} emptied the queue: a timer queued before the last one is gone already. */
    private long resets;

    public Engine(Chooser chooser, long quantumNs) {
        if (quantumNs < 0) {
            throw new IllegalArgumentException("quantum must be >= 0 ns, got " + quantumNs);
        }
        this.chooser = chooser;
        this.quantum = quantumNs;
    }

    public long now() {
        return now;
    }

    public long steps() {
        return steps;
    }

    public long quantum() {
        return quantum;
    }

    public Chooser chooser() {
        return chooser;
    }

    public void chooser(Chooser c) {
        this.chooser = c;
    }

    /** Schedules {@code e} at absolute virtual time {@code time} (never in the past). */
    public void at(long time, Event e) {
        long t = Math.max(time, now);
        if (soon != null) {
            if (t > soonTime) {
                queue.add(e, t);
                return;
            }
            // At its time (a tie: an ORDER choice among both) or before it: the heap orders them.
            spillSoon();
        }
        if (tieCount == 0 && t < queue.peekTime()) {
            soon = e;
            soonTime = t;
            soonSeq = queue.reserveSeq();
        } else {
            queue.add(e, t);
        }
    }

    /** Schedules {@code action} at {@code time} as a {@link Timer}, which {@link #cancel} can take back before it fires. */
    public Timer timer(long time, Event action) {
        Timer t = new Timer(action, resets);
        at(time, t);
        return t;
    }

    /** Takes back timer {@code t}: it will not fire. Nothing when it is null, already fired or was cancelled. */
    public void cancel(Timer t) {
        if (t == null || t.done() || t.resets() != resets) {
            return; // none, fired, cancelled, or queued before a reset emptied the queue
        }
        t.markCancelled();
        if (soon == t) {
            soon = null;
            return;
        }
        for (int i = 0; i < tieCount; i++) {
            if (ties[i] == t) {
                System.arraycopy(ties, i + 1, ties, i, tieCount - i - 1);
                ties[--tieCount] = null;
                return;
            }
        }
        queue.cancelled(t);
    }

    /** Cancelled timers waiting in the heap to be dropped (for tests of the engine). */
    int cancelledPending() {
        return queue.cancelledCount();
    }

    /** Moves the held next event into the heap, in the FIFO place its sequence number keeps. */
    private void spillSoon() {
        queue.add(soon, soonTime, soonSeq);
        soon = null;
    }

    /** Time of the earliest pending event, held or in the heap. */
    private long headTime() {
        return soon != null ? soonTime : queue.peekTime();
    }

    /** Time of the next event anywhere: now while events are due now, Long.MAX_VALUE when none is pending. */
    public long nextEventTime() {
        return tieCount > 0 ? now : headTime();
    }

    /** Latest virtual time a batch may reach without skipping past another event. */
    public long horizon() {
        long head = nextEventTime();
        return head == Long.MAX_VALUE ? Long.MAX_VALUE : head + quantum;
    }

    /** Asks the chooser to pick one of {@code options}; a single option is no choice. */
    public int choose(ChoicePoint point, int options) {
        return options <= 1 ? 0 : chooser.choose(point, options);
    }

    /**
     * A value in [min, max] chosen at a choice point among {@code points} evenly spaced values,
     * so an exhaustive explorer sees a small alternative set and a random one covers the range.
     */
    public long chooseInRange(ChoicePoint point, long min, long max, int points) {
        if (max <= min || points <= 1) {
            return min;
        }
        int i = choose(point, points);
        return min + (max - min) * i / (points - 1);
    }

    /** Whether the explorer answers the choices (see {@link Chooser#exploring()}). */
    public boolean exploring() {
        return chooser.exploring();
    }

    /** Ends the current {@link #run} after the step in progress. */
    public void stop() {
        stopped = true;
    }

    public boolean isStopped() {
        return stopped;
    }

    /**
     * Ends the run: stops it after the step in progress, as {@link #stop()} does, and marks it
     * ended. A timed workload's measurement window closed, and what its tasks would do after it
     * is not part of the run (ebizzy -S), so a runner that sees the mark does not wait for them to
     * exit. One engine runs every VM of a host, so this ends theirs too.
     */
    public void endRun() {
        ended = true;
        stopped = true;
    }

    /** Whether {@link #endRun} was called since the last {@link #reset}. */
    public boolean runEnded() {
        return ended;
    }

    /** Clears all pending events and the clock, for reusing a model between schedules. */
    public void reset() {
        resets++;
        queue.clear();
        soon = null;
        java.util.Arrays.fill(ties, 0, tieCount, null);
        tieCount = 0;
        now = 0;
        steps = 0;
        stepsThisInstant = 0;
        stopped = false;
        ended = false;
    }

    /**
     * Runs events until none is left, the clock would pass {@code until}, {@code maxSteps}
     * steps ran, or {@link #stop()} was called.
     */
    public void run(long until, long maxSteps) {
        stopped = false;
        long limit = maxSteps == Long.MAX_VALUE ? Long.MAX_VALUE : steps + maxSteps;
        while (!stopped && steps < limit && (tieCount > 0 || soon != null || !queue.isEmpty())) {
            long t = nextEventTime();
            if (t > until) {
                break;
            }
            Event e;
            if (soon != null) {
                // Strictly earlier than the heap's head when it was held, and everything added
                // since at or before its time spilled it: it is due alone.
                e = soon;
                soon = null;
            } else {
                e = tieCount == 0 && queue.peekTimeAfterHead() != t ? queue.poll() : pickAmongTies(t);
            }
            if (t != now) {
                now = t;
                stepsThisInstant = 0;
            } else if (++stepsThisInstant > MAX_STEPS_PER_INSTANT) {
                throw new dev.pvtlb.model.NoProgressException(e.describe() + " ran " + MAX_STEPS_PER_INSTANT + " steps at virtual time "
                        + now + " ns without the clock advancing: the model makes no progress");
            }
            steps++;
            e.fire(this);
        }
    }

    /**
     * Takes one of the events due at {@code t}, chosen at an ORDER choice point among all of
     * them in FIFO order; the others keep their order ahead of anything scheduled later.
     */
    private Event pickAmongTies(long t) {
        while (queue.peekTime() == t) {
            if (tieCount == ties.length) {
                ties = java.util.Arrays.copyOf(ties, tieCount * 2);
            }
            ties[tieCount++] = queue.poll();
        }
        int pick = choose(ChoicePoint.ORDER, tieCount);
        Event chosen = ties[pick];
        System.arraycopy(ties, pick + 1, ties, pick, tieCount - pick - 1);
        ties[--tieCount] = null;
        return chosen;
    }
}
