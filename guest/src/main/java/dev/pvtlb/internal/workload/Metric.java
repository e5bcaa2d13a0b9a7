package dev.pvtlb.internal.workload;

import org.HdrHistogram.Histogram;

/**
 * One result of a workload: a value and its unit; {@code higherIsBetter} orients comparisons.
 * A latency metric also carries its distribution in picoseconds (else null), so a report can
 * give percentiles over all repetitions.
 */
public record Metric(double value, String unit, boolean higherIsBetter, Histogram distributionPs) {
    public Metric(double value, String unit, boolean higherIsBetter) {
        this(value, unit, higherIsBetter, null);
    }

    /** A latency metric in ns: the recorder's mean, with its distribution. */
    public static Metric latency(LatencyRecorder r) {
        return new Metric(r.meanNs(), "ns", false, r.histogramPs());
    }
}
