package dev.pvtlb.report;

import java.math.BigDecimal;

/**
 * The ticks of a chart's value axis: a step of 1, 2 or 5 times a power of ten, and the axis
 * stretched to whole steps around the data, so the labels read 0, 2000, 4000, 6000, 8000 rather
 * than the data's own 2045, 4089, 6134, 8178 (Heckbert's "nice numbers", Graphics Gems, 1990).
 */
public record AxisTicks(double min, double max, double step) {
    /** Ticks for data from {@code lo} to {@code hi} with about {@code wanted} intervals (at least one). */
    public static AxisTicks nice(double lo, double hi, int wanted) {
        if (!(hi > lo)) {
            hi = lo + 1;
        }
        double step = niceStep((hi - lo) / Math.max(1, wanted));
        // Through BigDecimal: whole multiples of the step, with no 0.30000000000000004 at the ends.
        BigDecimal s = BigDecimal.valueOf(step);
        double min = s.multiply(BigDecimal.valueOf(Math.floor(lo / step))).doubleValue();
        double max = s.multiply(BigDecimal.valueOf(Math.ceil(hi / step))).doubleValue();
        return new AxisTicks(min, max, step);
    }

    /** The nearest of 1, 2, 5 times a power of ten to {@code raw} (so the number of intervals stays near the one wanted). */
    static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double f = raw / p;
        double n = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
        return BigDecimal.valueOf(n).multiply(BigDecimal.valueOf(p)).doubleValue();
    }

    /** The tick values from {@link #min} to {@link #max}, both included. */
    public double[] values() {
        int n = (int) Math.round((max - min) / step);
        double[] v = new double[n + 1];
        BigDecimal s = BigDecimal.valueOf(step);
        BigDecimal m = BigDecimal.valueOf(min);
        for (int i = 0; i <= n; i++) {
            v[i] = m.add(s.multiply(BigDecimal.valueOf(i))).doubleValue();
        }
        return v;
    }

    /** A tick's label: as many decimals as the step has (0.0, 0.5, 1.0; 0, 2000, 4000), the same on every tick. */
    public String label(double v) {
        int decimals = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
        return BigDecimal.valueOf(v).setScale(decimals, java.math.RoundingMode.HALF_UP).toPlainString();
    }
}
