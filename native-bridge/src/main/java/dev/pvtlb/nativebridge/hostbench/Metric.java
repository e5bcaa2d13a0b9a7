package dev.pvtlb.nativebridge.hostbench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One measured quantity: mean, median and sample standard deviation over its samples, and the
 * unit. On a shared or virtualized host a few rounds are preempted for milliseconds, which
 * moves the mean far more than the median; calibration uses the median for that reason.
 */
public record Metric(double mean, double median, double stdev, String unit, int samples) {

    /** {mean, median, stdev, unit, samples} in that order, for JSON. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mean", mean);
        m.put("median", median);
        m.put("stdev", stdev);
        m.put("unit", unit);
        m.put("samples", samples);
        return m;
    }
}
