package dev.pvtlb.explore;

import java.util.SplittableRandom;

/** Every choice uniform at random; schedule i draws from its own stream of the seed. */
public final class RandomStrategy implements Strategy {
    private final long seed;

    public RandomStrategy(long seed) {
        this.seed = seed;
    }

    @Override
    public ChoiceSource schedule(int index) {
        SplittableRandom r = new SplittableRandom(seed ^ (index * 0x9E3779B97F4A7C15L));
        return (point, options, i) -> r.nextInt(options);
    }

    @Override
    public boolean independent() {
        return true;
    }

    @Override
    public String name() {
        return "random";
    }
}
