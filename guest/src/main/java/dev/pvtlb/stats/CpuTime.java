package dev.pvtlb.stats;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Per-CPU virtual time by {@link TimeCategory}, in nanoseconds. A {@link Watcher} sees each
 * interval as it is booked, and each IPI or hypercall that starts work on another CPU: what
 * a timeline of the run is drawn from. With no watcher, booking costs one branch more.
 */
public final class CpuTime {
    private static final int N = TimeCategory.values().length;
    private final long[] ns;
    private Watcher watcher;

    public CpuTime(int cpus) {
        this.ns = new long[cpus * N];
    }

    /**
     * Sees what each CPU does over virtual time, in the order the model books it (per CPU, in
     * time order). Intervals of a CPU blocked (idle, spinning) or preempted are booked when
     * they end, so one still open when the run stops is never seen.
     */
    public interface Watcher {
        /** {@code cpu} spent {@code [startNs, endNs)} on {@code category}. */
        void interval(int cpu, TimeCategory category, long startNs, long endNs);

        /**
         * {@code from} started work on {@code to}: an IPI sent at {@code sentNs} that arrives at
         * {@code arrivalNs}, or a hypercall whose host work reaches a running vCPU.
         */
        void flow(String kind, int from, long sentNs, int to, long arrivalNs);
    }

    /** Sets the one watcher (null: none); a guest's reset removes it. */
    public void watch(Watcher w) {
        this.watcher = w;
    }

    public void add(int cpu, TimeCategory c, long delta) {
        ns[cpu * N + c.ordinal()] += delta;
    }

    /** Books {@code [startNs, endNs)} of {@code cpu}'s time as {@code c}. */
    public void book(int cpu, TimeCategory c, long startNs, long endNs) {
        ns[cpu * N + c.ordinal()] += endNs - startNs;
        if (watcher != null) {
            watcher.interval(cpu, c, startNs, endNs);
        }
    }

    /** Tells the watcher, if any, that {@code from} started work on {@code to} (see {@link Watcher#flow}). */
    public void flow(String kind, int from, long sentNs, int to, long arrivalNs) {
        if (watcher != null) {
            watcher.flow(kind, from, sentNs, to, arrivalNs);
        }
    }

    public long get(int cpu, TimeCategory c) {
        return ns[cpu * N + c.ordinal()];
    }

    public long total(TimeCategory c) {
        long t = 0;
        for (int i = c.ordinal(); i < ns.length; i += N) {
            t += ns[i];
        }
        return t;
    }

    public void reset() {
        java.util.Arrays.fill(ns, 0);
        watcher = null;
    }

    /** Totals over all CPUs, by category name. */
    public Map<String, Long> totals() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (TimeCategory c : TimeCategory.values()) {
            m.put(c.key, total(c));
        }
        return m;
    }
}
