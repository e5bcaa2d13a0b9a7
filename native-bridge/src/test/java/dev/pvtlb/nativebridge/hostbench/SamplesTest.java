package dev.pvtlb.nativebridge.hostbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SamplesTest {
    private static Samples of(double... values) {
        Samples s = new Samples();
        for (double v : values) {
            s.add(v);
        }
        return s;
    }

    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, of(3, 1, 2).median());
        assertEquals(2.5, of(4, 1, 3, 2).median());
        assertTrue(Double.isNaN(of().median()));
    }

    @Test
    void oneOutlierMovesTheMeanNotTheMedian() {
        Metric m = of(10, 11, 12, 10_000).toMetric("ns");
        assertEquals(2508.25, m.mean());
        assertEquals(11.5, m.median());
        assertEquals(4, m.samples());
        assertEquals("ns", m.unit());
    }

    @Test
    void growsPastItsInitialCapacity() {
        Samples s = new Samples();
        for (int i = 1; i <= 1001; i++) {
            s.add(i);
        }
        assertEquals(1001, s.size());
        assertEquals(501.0, s.median());
    }
}
