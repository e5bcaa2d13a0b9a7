package dev.pvtlb.hazard;

import dev.pvtlb.stats.TraceStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a guest's always-on hazard detectors found (the detectors themselves are the model's:
 * page-table walkers report walks after free, TLB hits and unflushed zaps are compared with
 * the page tables). Only the first {@link #LIMIT} hazards are kept; the count goes on.
 */
public final class HazardLog {
    public static final int LIMIT = 64;

    private final TraceStream trace;
    private final List<Hazard> hazards = new ArrayList<>();
    private long count;
    private Consumer<Hazard> listener;

    /** A log that also writes each hazard to {@code trace} as a {@code hazard} tracepoint. */
    public HazardLog(TraceStream trace) {
        this.trace = trace;
    }

    /** The listener set by {@link #listener(Consumer)}, or null. */
    public Consumer<Hazard> listener() {
        return listener;
    }

    /** Called with each hazard as it is found (the explorer stops the run on the first). */
    public void listener(Consumer<Hazard> l) {
        this.listener = l;
    }

    public List<Hazard> hazards() {
        return Collections.unmodifiableList(hazards);
    }

    public long count() {
        return count;
    }

    public void clear() {
        hazards.clear();
        count = 0;
    }

    /** Records a hazard a detector found: counted, kept while under the limit, traced, and passed to the listener. */
    public void add(Hazard h) {
        count++;
        if (hazards.size() < LIMIT) {
            hazards.add(h);
        }
        trace.event(h.timeNs(), h.cpu(), "hazard", h.kind() + ": " + h.detail());
        if (listener != null) {
            listener.accept(h);
        }
    }
}
