package dev.pvtlb.stats;

import java.util.LinkedHashMap;
import java.util.Map;

/** The run's counters, summed over CPUs as /proc/vmstat shows them. */
public final class VmStat {
    /** A guest's counters, all zero; the guest makes its own at boot. */
    public VmStat() {}

    private final long[] counts = new long[Counter.values().length];

    public void inc(Counter c) {
        counts[c.ordinal()]++;
    }

    public void add(Counter c, long n) {
        counts[c.ordinal()] += n;
    }

    public long get(Counter c) {
        return counts[c.ordinal()];
    }

    public void reset() {
        java.util.Arrays.fill(counts, 0);
    }

    /** All counters by their report names, in declaration order. */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Counter c : Counter.values()) {
            m.put(c.key, counts[c.ordinal()]);
        }
        return m;
    }
}
