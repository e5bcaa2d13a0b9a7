package dev.pvtlb.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The tracepoint stream. With no subscriber, emitting costs one branch, so tracepoints stay in
 * the model's paths for good, as in the kernel. When a JDK Flight Recorder recording that
 * enables {@code dev.pvtlb.Tracepoint} is running, every tracepoint is also committed as a
 * JFR event (the check is made when the stream is created and on each new recording state).
 */
public final class TraceStream {
    /** A stream with no subscribers; the guest makes its own at boot. */
    public TraceStream() {}

    /** Whether some recording enables the tracepoint event; updated by a JFR listener. */
    private static volatile boolean jfrOn;

    static {
        try {
            jdk.jfr.FlightRecorder.addListener(new jdk.jfr.FlightRecorderListener() {
                @Override
                public void recordingStateChanged(jdk.jfr.Recording r) {
                    jfrOn = new TlbFlushJfrEvent().isEnabled();
                }
            });
            jfrOn = jdk.jfr.FlightRecorder.isInitialized() && new TlbFlushJfrEvent().isEnabled();
        } catch (RuntimeException | Error e) {
            jfrOn = false; // no JFR in this runtime: tracepoints go to subscribers only
        }
    }

    /** Copied on change, so a subscriber may unsubscribe (itself or another) while an event is delivered. */
    private List<Consumer<TraceEvent>> subscribers = List.of();
    private boolean active;

    /** A subscription; closing it unsubscribes. */
    public interface Subscription extends AutoCloseable {
        @Override
        void close();
    }

    /** Drops every subscriber (a guest being reset). */
    public void clear() {
        subscribers = List.of();
        active = false;
    }

    /** Delivers every later tracepoint hit to {@code s}, until the returned subscription is closed. */
    public Subscription subscribe(Consumer<TraceEvent> s) {
        List<Consumer<TraceEvent>> next = new ArrayList<>(subscribers);
        next.add(s);
        subscribers = List.copyOf(next);
        active = true;
        return () -> unsubscribe(s);
    }

    /** Stops delivering to {@code s} (its first subscription, if it subscribed twice); no-op if it is not subscribed. */
    public void unsubscribe(Consumer<TraceEvent> s) {
        List<Consumer<TraceEvent>> next = new ArrayList<>(subscribers);
        for (int i = 0; i < next.size(); i++) {
            if (next.get(i) == s) {
                next.remove(i);
                break;
            }
        }
        subscribers = List.copyOf(next);
        active = !subscribers.isEmpty();
    }

    /** trace_tlb_flush(reason, pages). */
    public void tlbFlush(long time, int cpu, TlbFlushReason reason, long pages) {
        if (active || jfrOn) {
            publish(new TraceEvent(time, cpu, "tlb:tlb_flush", reason, pages, ""));
        }
    }

    public void event(long time, int cpu, String name, String detail) {
        if (active || jfrOn) {
            publish(new TraceEvent(time, cpu, name, null, 0, detail));
        }
    }

    private void publish(TraceEvent e) {
        for (Consumer<TraceEvent> s : subscribers) {
            s.accept(e);
        }
        if (jfrOn) {
            TlbFlushJfrEvent j = new TlbFlushJfrEvent();
            j.virtualTimeNs = e.time();
            j.cpu = e.cpu();
            j.name = e.name();
            j.reason = e.reason() == null ? "" : e.reason().name();
            j.pages = e.pages();
            j.detail = e.detail();
            j.commit();
        }
    }
}
