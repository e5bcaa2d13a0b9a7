package dev.pvtlb.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The tracepoint stream. With no subscriber, emitting costs one branch, so tracepoints stay in
 * the model's paths for good, as in the kernel.
 */
public final class TraceStream {
    private final List<Consumer<TraceEvent>> subscribers = new ArrayList<>();
    private boolean active;

    /** Drops every subscriber (a guest being reset). */
    public void clear() {
        subscribers.clear();
    }

    public void subscribe(Consumer<TraceEvent> s) {
        subscribers.add(s);
        active = true;
    }

    public boolean active() {
        return active;
    }

    /** trace_tlb_flush(reason, pages). */
    public void tlbFlush(long time, int cpu, TlbFlushReason reason, long pages) {
        if (active) {
            publish(new TraceEvent(time, cpu, "tlb:tlb_flush", reason, pages, ""));
        }
    }

    public void event(long time, int cpu, String name, String detail) {
        if (active) {
            publish(new TraceEvent(time, cpu, name, null, 0, detail));
        }
    }

    private void publish(TraceEvent e) {
        for (Consumer<TraceEvent> s : subscribers) {
            s.accept(e);
        }
    }
}
