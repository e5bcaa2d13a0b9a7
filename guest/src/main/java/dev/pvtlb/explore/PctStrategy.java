package dev.pvtlb.explore;

import dev.pvtlb.model.ChoicePoint;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010) carried over to choice
 * points: each schedule draws a random priority per kind of choice, answers every choice of
 * that kind by it (a fixed bias: the same event wins each tie, latencies sit at one value),
 * and at d-1 change points, placed uniformly over the schedule's expected length, answers at
 * random instead. A bug of depth d is found with probability at least 1/(n k^(d-1)) per
 * schedule in PCT's terms; here the length is learned from the schedules already run.
 */
public final class PctStrategy implements Strategy {
    private final long seed;
    private final int depth;
    private int expectedLength = 64;

    public PctStrategy(long seed, int depth) {
        if (depth < 1) {
            throw new IllegalArgumentException("pct depth must be at least 1, got " + depth);
        }
        this.seed = seed;
        this.depth = depth;
    }

    @Override
    public ChoiceSource schedule(int index) {
        SplittableRandom r = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L));
        int[] bias = new int[ChoicePoint.values().length];
        for (int i = 0; i <= ChoicePoint.DELAY.ordinal(); i++) {
            bias[i] = r.nextInt(1 << 20);
        }
        // Kinds added later draw from their own generator, so the schedules of the older kinds stay as they were.
        SplittableRandom later = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L) ^ 0x5DEECE66DL);
        for (int i = ChoicePoint.DELAY.ordinal() + 1; i < bias.length; i++) {
            bias[i] = later.nextInt(1 << 20);
        }
        int[] changes = new int[depth - 1];
        for (int i = 0; i < changes.length; i++) {
            changes[i] = r.nextInt(Math.max(1, expectedLength));
        }
        Arrays.sort(changes);
        return (point, options, i) -> Arrays.binarySearch(changes, i) >= 0
                ? r.nextInt(options) : bias[point.ordinal()] % options;
    }

    @Override
    public void finished(java.util.List<Choice> taken) {
        expectedLength = Math.max(expectedLength, taken.size());
    }

    @Override
    public String name() {
        return "pct";
    }
}
