package dev.pvtlb.internal.workload;

import java.util.LinkedHashMap;
import java.util.Map;

/** What the threads of one tlb-torture run share: its mix and timings, and the count of each operation. */
final class TortureRun {
    /** The explorer's alternatives for each delay and nap: evenly spaced lengths. */
    static final int DELAY_POINTS = 16;

    final TortureMix mix;
    final long delayNs;
    final long napNs;
    final int childPages;
    /** Child processes per fork operation. */
    final int children;
    int forks;
    private final long[] done = new long[TortureMix.Kind.values().length];
    private final long[] skipped = new long[TortureMix.Kind.values().length];

    TortureRun(TortureMix mix, long delayNs, long napNs, int childPages, int children) {
        this.mix = mix;
        this.delayNs = delayNs;
        this.napNs = napNs;
        this.childPages = childPages;
        this.children = children;
    }

    void count(TortureMix.Kind kind, boolean planned) {
        (planned ? done : skipped)[kind.ordinal()]++;
    }

    /** One metric per kind: how many were done; and how many were skipped because their slot was in use. */
    Map<String, Metric> metrics() {
        Map<String, Metric> m = new LinkedHashMap<>();
        long skips = 0;
        for (TortureMix.Kind k : TortureMix.Kind.values()) {
            m.put(k.label() + "_ops", new Metric(done[k.ordinal()], "ops", true));
            skips += skipped[k.ordinal()];
        }
        m.put("skipped_ops", new Metric(skips, "ops", false));
        return m;
    }
}
