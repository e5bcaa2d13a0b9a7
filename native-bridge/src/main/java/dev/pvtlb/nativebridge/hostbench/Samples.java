package dev.pvtlb.nativebridge.hostbench;

import java.util.Arrays;

/** A growable list of doubles, written by one thread, summarized into a {@link Metric}. */
final class Samples {
    private double[] values = new double[64];
    private int size;

    void add(double value) {
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        values[size++] = value;
    }

    void addAll(Samples other) {
        for (int i = 0; i < other.size; i++) {
            add(other.values[i]);
        }
    }

    int size() {
        return size;
    }

    Metric toMetric(String unit) {
        double mean = 0;
        for (int i = 0; i < size; i++) {
            mean += values[i];
        }
        mean = size == 0 ? Double.NaN : mean / size;
        double squares = 0;
        for (int i = 0; i < size; i++) {
            squares += (values[i] - mean) * (values[i] - mean);
        }
        double stdev = size < 2 ? 0 : Math.sqrt(squares / (size - 1));
        return new Metric(mean, median(), stdev, unit, size);
    }

    /** The middle value, or the mean of the two middle ones; NaN with no sample. */
    double median() {
        if (size == 0) {
            return Double.NaN;
        }
        double[] sorted = Arrays.copyOf(values, size);
        Arrays.sort(sorted);
        int mid = size / 2;
        return size % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    static Samples merge(Samples[] parts) {
        Samples all = new Samples();
        for (Samples part : parts) {
            all.addAll(part);
        }
        return all;
    }

    static Samples[] perThread(int threads) {
        Samples[] s = new Samples[threads];
        Arrays.setAll(s, i -> new Samples());
        return s;
    }
}
