package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AxisTicksTest {
    @Test
    void rawDataGetsRoundTicksOfOneTwoOrFive() {
        // The chart: data up to 8178 had ticks 2045, 4089, 6134, 8178.
        assertArrayEquals(new double[] {0, 2000, 4000, 6000, 8000, 10000}, AxisTicks.nice(0, 8178, 4).values());
        assertArrayEquals(new double[] {0, 0.1, 0.2, 0.3, 0.4}, AxisTicks.nice(0, 0.37, 4).values());
        assertArrayEquals(new double[] {-50, 0, 50, 100, 150}, AxisTicks.nice(-12, 140, 4).values());
        assertEquals(new AxisTicks(1200, 1350, 50), AxisTicks.nice(1203, 1342, 4));
    }

    @Test
    void labelsHaveTheStepsDecimalsOnEveryTick() {
        AxisTicks t = AxisTicks.nice(0, 0.37, 4);
        assertEquals(java.util.List.of("0.0", "0.1", "0.2", "0.3", "0.4"),
                java.util.Arrays.stream(t.values()).mapToObj(t::label).toList());
        assertEquals("12000", AxisTicks.nice(0, 40000, 4).label(12000));
    }

    @Test
    void anEmptyRangeStillHasAnAxis() {
        assertArrayEquals(new double[] {3, 3.2, 3.4, 3.6, 3.8, 4}, AxisTicks.nice(3, 3, 4).values());
    }

    @Test
    void chartsLabelTheirAxisWithTheTicks() {
        String svg = SvgChart.barChart("t", "y", java.util.List.of("a", "b"), new double[] {2045, 8178}, new double[2]);
        java.util.List<String> labels = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("<text class='tick'[^>]*>([^<]*)</text>").matcher(svg);
        while (m.find()) {
            labels.add(m.group(1));
        }
        assertEquals(java.util.List.of("0", "2000", "4000", "6000", "8000", "10000"), labels);
    }
}
