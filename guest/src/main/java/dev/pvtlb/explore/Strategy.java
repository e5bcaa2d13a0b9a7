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

    String name();
}
