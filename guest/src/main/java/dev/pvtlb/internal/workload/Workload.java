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

    /**
     * Whether {@code pvtlb explore} hunts in this workload by branching short windows at its
     * flushes from warmed runs (a benchmark's long run, where a whole run per schedule would
     * explore a few schedules a second) rather than schedule by schedule from boot (a catalogue
     * entry's short race, the torture).
     */
    default boolean exploredInWindows() {
        return false;
    }

    /** Parameters and their defaults, in a stable order. */
    Map<String, String> parameters();

    /** Applies this workload's default machine (topology, memory) to {@code b}. */
    void configure(GuestConfig.Builder b, Params params);

    /** Creates the processes and tasks; returns what computes the metrics after the run. */
    Supplier<Map<String, Metric>> setUp(Kernel guest, Params params);
}
