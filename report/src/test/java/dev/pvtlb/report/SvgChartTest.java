package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SvgChartTest {
    private static int count(String s, String what) {
        return s.split(java.util.regex.Pattern.quote(what), -1).length - 1;
    }

    @Test
    void aLineChartHasAPointPerValueAndAnEscapedTitle() {
        String svg = SvgChart.lineChart("munmap_ns vs <threads>", "threads", "munmap_ns", new double[] {1, 2, 4},
                List.of(new SvgChart.Series("a", new double[] {10, 20, 30}, new double[3]),
                        new SvgChart.Series("b", new double[] {5, 6, 7}, new double[] {1, 0, 0})));
        assertTrue(svg.startsWith("<svg "), svg);
        assertTrue(svg.contains(">munmap_ns vs &lt;threads&gt;</text>"), svg);
        assertEquals(6, count(svg, "<circle"));
        assertEquals(2, count(svg, "<polyline"));
        assertFalse(svg.contains("NaN"), svg);
    }

    @Test
    void aMissingValueIsLeftOutOfItsLine() {
        String svg = SvgChart.lineChart("t", "x", "y", new double[] {1, 2, 3},
                List.of(new SvgChart.Series("gappy", new double[] {1, Double.NaN, 3}, new double[3])));
        assertEquals(2, count(svg, "<circle"));
        assertFalse(svg.contains("NaN"), svg);
    }

    @Test
    void aBarChartHasABarPerName() {
        String svg = SvgChart.barChart("t", "y", List.of("native", "kvm"), new double[] {3, 4}, new double[] {0, 1});
        assertEquals(2, count(svg, "<title>"));
        assertTrue(svg.contains("<title>kvm: 4 (1)</title>"), svg);
    }
}
