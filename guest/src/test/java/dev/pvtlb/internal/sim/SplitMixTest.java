package dev.pvtlb.internal.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** SplitMix draws what java.util.SplittableRandom of the same seed draws, so moving to it changed no run. */
class SplitMixTest {
    @Test
    void drawsTheSameValuesAsSplittableRandom() {
        for (long seed : new long[] {0, 1, -7, 0x6d756e6d6170L, Long.MIN_VALUE}) {
            SplittableRandom jdk = new SplittableRandom(seed);
            SplitMix own = new SplitMix(seed);
            for (int i = 0; i < 20_000; i++) {
                switch (i % 5) {
                    case 0 -> assertEquals(jdk.nextLong(), own.nextLong());
                    case 1 -> assertEquals(jdk.nextInt(), own.nextInt());
                    case 2 -> assertEquals(jdk.nextInt(1 + i % 977), own.nextInt(1 + i % 977), "bound " + (1 + i % 977));
                    case 3 -> assertEquals(jdk.nextInt(1 << (i % 31)), own.nextInt(1 << (i % 31)));
                    default -> assertEquals(jdk.nextDouble(), own.nextDouble());
                }
            }
        }
    }

    @Test
    void aBoundBelowOneIsRefused() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new SplitMix(1).nextInt(0));
    }
}
