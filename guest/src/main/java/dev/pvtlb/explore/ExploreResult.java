package dev.pvtlb.explore;

import dev.pvtlb.hazard.Hazard;
import java.util.List;

/**
 * The verdict of an exploration: how many schedules ran, in how long, and for a hazard the
 * schedule that first found it (number {@code foundAt}, counting from 1), its shrunk form with
 * the readable steps that lead to it, and the scenario it was found in ({@code explored}: what
 * {@link #toTraceFile} names, so that {@link Explorer#replay(TraceFile)} can run it again).
 */
public record ExploreResult(String strategy, long schedules, double seconds, boolean exhausted, Hazard hazard,
                            long foundAt, List<Choice> shrunk, long shrunkSteps, List<String> trace, Explored explored,
                            boolean windowed, long baseRuns, boolean foundByBaseRun) {
    /** A search of whole runs: each schedule one run from boot. */
    public ExploreResult(String strategy, long schedules, double seconds, boolean exhausted, Hazard hazard, long foundAt,
                         List<Choice> shrunk, long shrunkSteps, List<String> trace, Explored explored) {
        this(strategy, schedules, seconds, exhausted, hazard, foundAt, shrunk, shrunkSteps, trace, explored, false, 0, false);
    }

    /**
     * This result as a search in windows ({@link Explorer#exploreWindows}): its schedules are
     * windows branched from {@code bases} runs; {@code byBaseRun}: the hazard was met by a base run
     * itself ({@link #foundAt} then counts the windows before it), not in a window.
     */
    ExploreResult inWindows(long bases, boolean byBaseRun) {
        return new ExploreResult(strategy, schedules, seconds, exhausted, hazard, foundAt, shrunk, shrunkSteps, trace, explored,
                true, bases, byBaseRun);
    }

    /** Whether the schedules were windows branched from base runs rather than whole runs ({@link #windowed}). */
    public boolean windows() {
        return windowed;
    }

    /** The explored built-in scenario as a trace file names it: name, backend, seed, settings. */
    public record Explored(String scenario, String backend, long seed, List<String> settings) {}

    /**
     * The found hazard as a replayable trace file ({@link TraceFile#write} with {@link #trace}
     * gives its text); a safe result has none.
     */
    public TraceFile toTraceFile() {
        if (safe()) {
            throw new IllegalStateException("no hazard was found: there is no schedule to replay");
        }
        return new TraceFile(explored.scenario(), explored.backend(), explored.seed(), explored.settings(), hazard.kind(),
                hazard.cpu(), hazard.timeNs(), shrunk);
    }

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
