package dev.pvtlb.internal.sim;

/**
 * SplitMix64 (Steele, Lea and Flood, OOPSLA 2014), the generator of
 * {@link java.util.SplittableRandom}, drawing exactly the values a SplittableRandom of the same
 * seed draws for the methods here (SplitMixTest compares them). The model's own class rather than
 * the JDK's because its state is two fields a model copy can read and write: a branch of a run
 * ({@link GraphCopy}) must go on drawing where the run it was copied from stood.
 */
public final class SplitMix {
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private long seed;

    public SplitMix(long seed) {
        this.seed = seed;
    }

    private long nextSeed() {
        return seed += GOLDEN_GAMMA;
    }

    public long nextLong() {
        long z = nextSeed();
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    public int nextInt() {
        long z = nextSeed();
        z = (z ^ (z >>> 33)) * 0x62a9d9ed799705f5L;
        return (int) (((z ^ (z >>> 28)) * 0xcb24d0a5c88c35b3L) >>> 32);
    }

    /** Uniform in [0, bound): a power of two masked, else rejection of the biased top, as the JDK does. */
    public int nextInt(int bound) {
        if (bound <= 0) {
            throw new IllegalArgumentException("bound must be positive, got " + bound);
        }
        int r = nextInt();
        int m = bound - 1;
        if ((bound & m) == 0) {
            return r & m;
        }
        for (int u = r >>> 1; u + m - (r = u % bound) < 0; u = nextInt() >>> 1) {
            // rejected: u fell in the last, partial run of bound values
        }
        return r;
    }

    /** Uniform in [0, 1): the top 53 bits of a long. */
    public double nextDouble() {
        return (nextLong() >>> 11) * 0x1.0p-53;
    }
}
