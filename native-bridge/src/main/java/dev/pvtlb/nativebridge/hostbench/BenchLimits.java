package dev.pvtlb.nativebridge.hostbench;

import java.time.Duration;
import java.util.Objects;

/**
 * How long a host benchmark may run: at most {@code iterations} rounds of its timed
 * operation and at most {@code maxRun} of wall time, whichever ends first.
 *
 * @param pages pages in each mapping the benchmark maps and touches
 */
public record BenchLimits(int iterations, int pages, Duration maxRun) {

    public BenchLimits {
        Objects.requireNonNull(maxRun, "maxRun");
        if (iterations < 1 || pages < 1 || maxRun.isNegative() || maxRun.isZero()) {
            throw new IllegalArgumentException("need iterations >= 1, pages >= 1 and a positive maxRun: "
                    + iterations + ", " + pages + ", " + maxRun);
        }
    }

    /** 200 rounds on 16-page mappings, at most 2 seconds. */
    public static BenchLimits defaults() {
        return new BenchLimits(200, 16, Duration.ofSeconds(2));
    }
}
