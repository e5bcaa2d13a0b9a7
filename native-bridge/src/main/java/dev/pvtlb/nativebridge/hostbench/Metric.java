package dev.pvtlb.nativebridge.hostbench;

import java.util.LinkedHashMap;
import java.util.Map;

/** One measured quantity: mean and sample standard deviation over its samples, and the unit. */
public record Metric(double mean, double stdev, String unit, int samples) {

    /** {mean, stdev, unit, samples} in that order, for JSON. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mean", mean);
        m.put("stdev", stdev);
        m.put("unit", unit);
        m.put("samples", samples);
        return m;
    }
}
