package dev.pvtlb.explore;

import dev.pvtlb.hazard.Hazard;
import java.util.List;

/**
 * The verdict of an exploration: how many schedules ran, in how long, and for a hazard the
 * schedule that first found it (number {@code foundAt}, counting from 1) and its shrunk form
 * with the readable steps that lead to it.
 */
public record ExploreResult(String strategy, long schedules, double seconds, boolean exhausted, Hazard hazard,
                            long foundAt, List<Choice> shrunk, long shrunkSteps, List<String> trace) {
    public boolean safe() {
        return hazard == null;
    }

    /** Choices of the shrunk schedule that depart from the default answer. */
    public long nonDefaultChoices() {
        return shrunk.stream().filter(c -> c.taken() != 0).count();
    }

    public double schedulesPerSecond() {
        return seconds > 0 ? schedules / seconds : 0;
    }
}
