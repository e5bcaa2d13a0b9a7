package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class SwimLanesTest {
    private static List<String> all(String svg, String regex) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(svg);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }

    @Test
    void aLanePerCpuASlicePerIntervalAnArrowPerIpiAndTheHazardMarked() {
        String svg = SwimLanes.svg(TimelineJsonTest.oneShootdown(), 0, 2500, "one shootdown");
        assertEquals(List.of("cpu0", "cpu1"), all(svg, "<text class='lane'[^>]*>([^<]*)</text>"));
        assertEquals(List.of("cpu0 user 0.000..1.000 us", "cpu0 kernel 1.000..1.800 us", "cpu1 user 0.000..1.700 us",
                "cpu0 ipi_wait 1.800..2.250 us", "cpu1 flush_handler 1.700..2.200 us"),
                all(svg, "<rect class='slice'[^>]*><title>([^<]*)</title>"));
        assertEquals(List.of("ipi cpu0 -&gt; cpu1, 1.500..1.700 us"), all(svg, "<line class='flow'[^>]*><title>([^<]*)</title>"));
        assertEquals(List.of("STALE_TRANSLATION: load of 0x1000"), all(svg, "<g class='hazard'>.*?<title>([^<]*)</title></g>"));
        assertEquals(List.of("0.0", "0.5", "1.0", "1.5", "2.0", "2.5"), all(svg, "<text class='tick'[^>]*>([^<]*)</text>"));
    }

    @Test
    void theHazardViewEndsJustAfterTheHazard() {
        Timeline t = TimelineJsonTest.oneShootdown();
        // 2300 ns of schedule before the hazard, all of it within the window; a twentieth more after it.
        assertEquals(SwimLanes.svg(t, 0, 2416, "h"), SwimLanes.beforeHazard(t, "h"));
        String late = SwimLanes.svg(t, 1900, 2500, "late");
        assertTrue(!late.contains("cpu0 user"), "a slice outside the window is not drawn");
    }
}
