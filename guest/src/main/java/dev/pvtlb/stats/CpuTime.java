package dev.pvtlb.stats;

import java.util.LinkedHashMap;
import java.util.Map;

/** Per-CPU virtual time by {@link TimeCategory}, in nanoseconds. */
public final class CpuTime {
    private static final int N = TimeCategory.values().length;
    private final long[] ns;

    public CpuTime(int cpus) {
        this.ns = new long[cpus * N];
    }

    public void add(int cpu, TimeCategory c, long delta) {
        ns[cpu * N + c.ordinal()] += delta;
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
