package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.config.GuestConfig;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A built-in or user workload: it shapes the guest it wants by default, creates processes and
 * tasks on a booted guest, and turns the run into metrics.
 */
public interface Workload {
    String name();

    String description();

    /** Parameters and their defaults, in a stable order. */
    Map<String, String> parameters();

    /** Applies this workload's default machine (topology, memory) to {@code b}. */
    void configure(GuestConfig.Builder b, Params params);

    /** Creates the processes and tasks; returns what computes the metrics after the run. */
    Supplier<Map<String, Metric>> setUp(Kernel guest, Params params);
}
