package dev.pvtlb.report;

import dev.pvtlb.Guest;
import dev.pvtlb.stats.CpuTime;
import dev.pvtlb.stats.TimeCategory;
import dev.pvtlb.stats.TraceEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What each CPU of one guest did over virtual time, recorded while it runs: the intervals the
 * model books as CPU time (merged when one continues the last of its CPU), the IPIs and
 * hypercalls that start work on another CPU, and the tracepoints (hazards, TLB flushes, pv_ops
 * calls) as instants. {@link TimelineJson} writes it as Trace Event Format for Perfetto.
 */
public final class Timeline implements CpuTime.Watcher {
    /** Events kept at most; past it the timeline stops where it was (a long run would give gigabytes). */
    public static final int LIMIT = 2_000_000;

    /** {@code cpu} spent {@code [startNs, endNs)} as {@code name} (a {@link TimeCategory} key). */
    public record Slice(int cpu, String name, long startNs, long endNs) {}

    /** An IPI or hypercall from {@code from} at {@code sentNs} reaching {@code to} at {@code arrivalNs}. */
    public record Flow(String kind, int from, long sentNs, int to, long arrivalNs) {}

    /** A tracepoint hit on {@code cpu} at {@code timeNs}; {@code hazard} for a hazard, with its explanation. */
    public record Mark(int cpu, long timeNs, String name, String detail) {}

    private final int cpus;
    private final List<Slice> slices = new ArrayList<>();
    /** Per CPU, the index of its last slice in {@link #slices}, or -1. */
    private final int[] last;
    private final List<Flow> flows = new ArrayList<>();
    private final List<Mark> marks = new ArrayList<>();
    private long truncatedAtNs = -1;

    public Timeline(int cpus) {
        this.cpus = cpus;
        this.last = new int[cpus];
        java.util.Arrays.fill(last, -1);
    }

    /** A timeline of {@code g} from now on: watches its CPU time and subscribes to its tracepoints. */
    public static Timeline of(Guest g) {
        Timeline t = new Timeline(g.cpus().size());
        g.cpuTime().watch(t);
        g.trace().subscribe(t::traced);
        return t;
    }

    @Override
    public void interval(int cpu, TimeCategory category, long startNs, long endNs) {
        if (endNs <= startNs || full(startNs)) {
            return;
        }
        int i = last[cpu];
        if (i >= 0) {
            Slice s = slices.get(i);
            if (s.endNs() == startNs && s.name().equals(category.key)) {
                slices.set(i, new Slice(cpu, s.name(), s.startNs(), endNs));
                return;
            }
        }
        last[cpu] = slices.size();
        slices.add(new Slice(cpu, category.key, startNs, endNs));
    }

    @Override
    public void flow(String kind, int from, long sentNs, int to, long arrivalNs) {
        if (!full(sentNs)) {
            flows.add(new Flow(kind, from, sentNs, to, arrivalNs));
        }
    }

    /** A tracepoint hit: kept as an instant on its CPU. */
    public void traced(TraceEvent e) {
        if (!full(e.time())) {
            marks.add(new Mark(e.cpu(), e.time(), e.name(), e.reason() != null
                    ? "reason:" + e.reason() + " pages:" + e.pages() : e.detail()));
        }
    }

    private boolean full(long timeNs) {
        if (truncatedAtNs >= 0) {
            return true;
        }
        if (slices.size() + flows.size() + marks.size() >= LIMIT) {
            truncatedAtNs = timeNs;
            return true;
        }
        return false;
    }

    public int cpus() {
        return cpus;
    }

    public List<Slice> slices() {
        return Collections.unmodifiableList(slices);
    }

    public List<Flow> flows() {
        return Collections.unmodifiableList(flows);
    }

    public List<Mark> marks() {
        return Collections.unmodifiableList(marks);
    }

    /** Where recording stopped at {@link #LIMIT} events, or -1 if it did not. */
    public long truncatedAtNs() {
        return truncatedAtNs;
    }
}
