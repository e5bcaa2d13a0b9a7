package dev.pvtlb.internal.sim;

/** Something that happens at one instant of virtual time: a CPU's next step, an IPI arriving, a timer. */
public interface Event {
    /** Runs the event; the engine's clock already reads its time. */
    void fire(Engine engine);

    /** What this event runs, for the watchdog's message (a CPU names its kernel path). */
    default String describe() {
        return String.valueOf(this);
    }
}
