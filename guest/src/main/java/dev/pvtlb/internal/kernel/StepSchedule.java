package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.sim.Event;
import java.util.function.Consumer;

/**
 * When a CPU's next step is due, and the engine's entry that fires it. Normally the entry is the
 * CPU itself, queued once per step. A step shared with an SMT sibling ({@link SmtSharing}) can
 * end later or earlier than it was queued for: later, and the entry fires early, finds the step
 * not done and queues itself again at the new end; earlier, and a fresh entry is queued at the
 * new end while the one it replaces stays in the engine's queue, stale, and is ignored when it
 * fires. Only a {@link dev.pvtlb.internal.sim.Timer} can be taken back, and the CPU's own entry
 * is not one (queuing it allocates nothing); these moves are rare (a sibling starting or stopping to
 * execute during a step), so a stale entry costs one ignored event.
 */
final class StepSchedule {
    private final Engine engine;
    private final Event self;
    /** Runs the step that came due (KernelCpu's step loop), for an entry a move queued. */
    private final Consumer<Engine> fireDue;
    /** When the step in progress ends, or the next step begins. */
    private long dueAt;
    /** When the live entry is queued to fire (at or before dueAt). */
    private long entryAt;
    /** The live entry when a move queued one; null: the CPU itself is the live entry. */
    private Moved moved;
    /** An entry of the CPU itself is queued that a move replaced: its next firing is ignored. */
    private boolean staleSelf;
    /** A next step is queued and has not run yet. */
    private boolean queued;

    StepSchedule(Engine engine, Event self, Consumer<Engine> fireDue) {
        this.engine = engine;
        this.self = self;
        this.fireDue = fireDue;
    }

    /** Queues the CPU's next step at {@code time}. */
    void at(long time) {
        queued = true;
        dueAt = time;
        entryAt = time;
        if (staleSelf) {
            moved = new Moved();
            engine.at(time, moved);
        } else {
            moved = null;
            engine.at(time, self);
        }
    }

    /** Whether a next step is queued. */
    boolean queued() {
        return queued;
    }

    /** The CPU itself fired: whether that is the live entry with its step due now (the CPU then runs it). */
    boolean selfDue(Engine e) {
        if (staleSelf) {
            staleSelf = false;
            return false;
        }
        return due(e, self);
    }

    private boolean due(Engine e, Event entry) {
        if (e.now() < dueAt) {
            // Stretched by a sibling since it was queued: not done yet.
            entryAt = dueAt;
            e.at(dueAt, entry);
            return false;
        }
        moved = null;
        queued = false;
        return true;
    }

    /** The step in progress now ends at {@code end} (a sibling started or stopped executing). */
    void move(long end) {
        dueAt = end;
        if (end < entryAt) {
            if (moved == null) {
                staleSelf = true;
            }
            moved = new Moved();
            entryAt = end;
            engine.at(end, moved);
        }
    }

    /** A new run: nothing queued. */
    void reset() {
        queued = false;
        moved = null;
        staleSelf = false;
        dueAt = 0;
        entryAt = 0;
    }

    /** The entry of a step end moved earlier; live while it is the schedule's {@link #moved}. */
    private final class Moved implements Event {
        @Override
        public void fire(Engine e) {
            if (moved == this && due(e, this)) {
                fireDue.accept(e);
            }
        }

        @Override
        public String describe() {
            return self.describe();
        }
    }
}
