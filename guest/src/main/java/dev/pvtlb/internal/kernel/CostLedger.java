package dev.pvtlb.internal.kernel;

import dev.pvtlb.stats.CostPart;

import java.util.LinkedHashMap;
import java.util.Map;

/** Virtual time charged to each {@link CostPart} over a run, summed over CPUs, kept in picoseconds. */
public final class CostLedger {
    private final long[] ps = new long[CostPart.values().length];

    public void addNs(CostPart part, long ns) {
        ps[part.ordinal()] += ns * 1000;
    }

    public void addPs(CostPart part, long picos) {
        ps[part.ordinal()] += picos;
    }

    public long ns(CostPart part) {
        return ps[part.ordinal()] / 1000;
    }

    public void reset() {
        java.util.Arrays.fill(ps, 0);
    }

    /** Nanoseconds by part key, in the enum's order. */
    public Map<String, Long> totals() {
        Map<String, Long> m = new LinkedHashMap<>();
        for (CostPart p : CostPart.values()) {
            m.put(p.key, ns(p));
        }
        return m;
    }
}
