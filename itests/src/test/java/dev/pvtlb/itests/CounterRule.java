package dev.pvtlb.itests;

import java.util.Optional;

/** One thing a backend's report must show about its counters (the report's {@code counters} object). */
@FunctionalInterface
interface CounterRule {
    /** Empty when the report keeps the rule, else what is wrong, with the values seen. */
    Optional<String> violation(Report r);

    static CounterRule positive(String counter) {
        return r -> {
            long v = r.counter(counter);
            return v > 0 ? Optional.empty() : Optional.of(counter + " must be > 0 but is " + v);
        };
    }

    static CounterRule zero(String counter) {
        return r -> {
            long v = r.counter(counter);
            return v == 0 ? Optional.empty() : Optional.of(counter + " must be 0 but is " + v);
        };
    }

    static CounterRule equal(String counter, String other) {
        return r -> {
            long a = r.counter(counter);
            long b = r.counter(other);
            return a == b ? Optional.empty() : Optional.of(counter + " (" + a + ") must equal " + other + " (" + b + ")");
        };
    }
}
