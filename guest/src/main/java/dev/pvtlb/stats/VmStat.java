package dev.pvtlb.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's counters, summed over CPUs as /proc/vmstat shows them: the model's ({@link Counter})
 * and those a backend adds of its own ({@link #own}), reported after them.
 */
public final class VmStat {
    /** A guest's counters, all zero; the guest makes its own at boot. */
    public VmStat() {}

    private final long[] counts = new long[Counter.values().length];
    private final List<String> ownKeys = new ArrayList<>();
    private long[] own = new long[0];

    /** One counter of a backend's own, under its report name. */
    public final class Own {
        private final int index;

        private Own(int index) {
            this.index = index;
        }

        public void inc() {
            own[index]++;
        }

        public void add(long n) {
            own[index] += n;
        }

        public long get() {
            return own[index];
        }
    }

    /**
     * The counter named {@code key} of a backend's own ({@code [a-z0-9_]+}, not a {@link Counter}'s
     * name), made at its first use: asked for again (by the same backend attached again after a
     * reset, say) it is the same counter.
     */
    public Own own(String key) {
        int i = ownKeys.indexOf(key);
        if (i < 0) {
            if (!key.matches("[a-z0-9_]{1,64}")) {
                throw new IllegalArgumentException("a counter name is 1 to 64 of a-z, 0-9 and _, got '" + key + "'");
            }
            for (Counter c : Counter.values()) {
                if (c.key.equals(key)) {
                    throw new IllegalArgumentException("counter '" + key + "' is the model's own: choose another name");
                }
            }
            i = ownKeys.size();
            ownKeys.add(key);
            own = Arrays.copyOf(own, i + 1);
        }
        return new Own(i);
    }

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
        Arrays.fill(counts, 0);
        Arrays.fill(own, 0);
    }

    /** All counters by their report names: the model's in declaration order, then a backend's in the order made. */
    public Map<String, Long> asMap() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (Counter c : Counter.values()) {
            m.put(c.key, counts[c.ordinal()]);
        }
        for (int i = 0; i < ownKeys.size(); i++) {
            m.put(ownKeys.get(i), own[i]);
        }
        return m;
    }
}
