package dev.pvtlb.explore;

import java.util.List;

/** How the explorer picks the schedules it tries. */
public interface Strategy {
    /** The source of answers for schedule number {@code index}. */
    ChoiceSource schedule(int index);

    /** Told what the schedule just run actually chose (an exhaustive search plans the next from it). */
    default void finished(List<Choice> taken) {}

    /** No schedule is left to try (only an exhaustive search ends). */
    default boolean exhausted() {
        return false;
    }

    /**
     * Whether schedule {@code i} depends on its index alone, not on what earlier schedules chose:
     * then several schedules may run at once ({@link Explorer#parallel}) and the search is the one
     * a single thread makes. A strategy that learns from {@link #finished} is not.
     */
    default boolean independent() {
        return false;
    }

    String name();
}
