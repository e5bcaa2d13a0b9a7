package dev.pvtlb.internal.workload;

import org.HdrHistogram.Histogram;

/**
 * Sum, count, minimum and maximum of one latency metric, and its distribution in an
 * HdrHistogram (3 significant digits) for percentiles. Batches of accesses add their total in
 * picoseconds, so the mean keeps sub-nanosecond precision; a batch counts as {@code n}
 * samples of its mean in the histogram.
 */
public final class LatencyRecorder {
    private final Histogram histogramPs = new Histogram(3);
    private long sumPs;
    private long count;
    private long minPs = Long.MAX_VALUE;
    private long maxPs;
    /*
     * Consecutive batches of one mean (a run of TLB hits costs the same every time) are added
     * to the histogram as one record: the histogram comes out the same, and a run with a
     * thousand CPUs taking short batches in turn no longer records once per step.
     */
    private long pendingValue = -1;
    private long pendingCount;

    public void addNs(long ns) {
        addBatch(ns * 1000, 1);
    }

    public void addBatch(long totalPs, long n) {
        sumPs += totalPs;
        count += n;
        long each = totalPs / n;
        minPs = Math.min(minPs, each);
        maxPs = Math.max(maxPs, each);
        if (n > 0) {
            long v = Math.max(0, each);
            if (v != pendingValue) {
                flushPending();
                pendingValue = v;
            }
            pendingCount += n;
        }
    }

    private void flushPending() {
        if (pendingCount > 0) {
            histogramPs.recordValueWithCount(pendingValue, pendingCount);
        }
        pendingValue = -1;
        pendingCount = 0;
    }

    /** The distribution so far, in picoseconds (a copy). */
    public Histogram histogramPs() {
        flushPending();
        return histogramPs.copy();
    }

    public long count() {
        return count;
    }

    /** Mean in ns, or 0 with no sample. */
    public double meanNs() {
        return count == 0 ? 0 : sumPs / 1000.0 / count;
    }

    public double maxNs() {
        return maxPs / 1000.0;
    }

    public void reset() {
        sumPs = 0;
        count = 0;
        minPs = Long.MAX_VALUE;
        maxPs = 0;
        pendingValue = -1;
        pendingCount = 0;
        histogramPs.reset();
    }
}
