package dev.pvtlb.internal.sim;

/**
 * The model's only source of randomness (DESIGN.md rule 1). One root seed is split per purpose
 * by name, so adding a consumer of randomness in one place does not shift the draws of another.
 */
public final class Rng {
    private final long seed;

    public Rng(long seed) {
        this.seed = seed;
    }

    public long seed() {
        return seed;
    }

    /** A generator for one purpose; the same purpose and seed always give the same stream. */
    public SplitMix forPurpose(String purpose) {
        long h = seed ^ 0x9E3779B97F4A7C15L;
        for (int i = 0; i < purpose.length(); i++) {
            h = (h ^ purpose.charAt(i)) * 0x100000001B3L;
        }
        return new SplitMix(h);
    }
}
