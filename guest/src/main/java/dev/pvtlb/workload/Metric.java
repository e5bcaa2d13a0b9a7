package dev.pvtlb.workload;

/** One result of a workload: a value and its unit; {@code higherIsBetter} orients comparisons. */
public record Metric(double value, String unit, boolean higherIsBetter) {
}
