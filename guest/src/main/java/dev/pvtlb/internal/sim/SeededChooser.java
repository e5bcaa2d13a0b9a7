package dev.pvtlb.internal.sim;

import dev.pvtlb.model.ChoicePoint;

import java.util.SplittableRandom;

/** The default chooser: uniform answers from a generator seeded by the scenario's seed. */
public final class SeededChooser implements Chooser {
    private final SplittableRandom random;

    public SeededChooser(long seed) {
        this.random = new SplittableRandom(seed);
    }

    @Override
    public int choose(ChoicePoint point, int options) {
        return random.nextInt(options);
    }
}
