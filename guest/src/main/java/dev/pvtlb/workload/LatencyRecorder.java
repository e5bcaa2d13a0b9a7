package dev.pvtlb.workload;

/**
 * Sum, count, minimum and maximum of one latency metric. Batches of accesses add their total
 * in picoseconds, so the mean keeps sub-nanosecond precision.
 */
public final class LatencyRecorder {
    private long sumPs;
    private long count;
    private long minPs = Long.MAX_VALUE;
    private long maxPs;

    public void addNs(long ns) {
        addBatch(ns * 1000, 1);
    }

    public void addBatch(long totalPs, long n) {
        sumPs += totalPs;
        count += n;
        long each = totalPs / n;
        minPs = Math.min(minPs, each);
        maxPs = Math.max(maxPs, each);
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
    }
}
