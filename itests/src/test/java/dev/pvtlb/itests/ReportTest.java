package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ReportTest {
    private static final String A = """
            {"scenario": "munmap-storm", "backend": "native", "seed": 3,
             "counters": {"ipis_sent": 1356, "hypercalls": 0},
             "metrics": {"munmap_ns": {"mean": 3145.37875, "unit": "ns"}}, "hazards": [],
             "host_timing": {"wall_s": 1.130782, "steps_per_s": 115290.087607}}""";

    @Test
    void readsFieldsAndCounters() {
        Report r = Report.parse(A);
        assertEquals("native", r.text("backend"));
        assertEquals(3, r.number("seed"));
        assertEquals(1356, r.counter("ipis_sent"));
        assertEquals(0, r.counter("hypercalls"));
        assertThrows(IllegalArgumentException.class, () -> r.counter("no_such_counter"));
    }

    @Test
    void comparesWithoutHostTimingAndKeepsNumbersAsWritten() {
        String other = A.replace("1.130782", "2.5").replace("115290.087607", "1");
        assertEquals(Report.parse(A).withoutHostTiming(), Report.parse(other).withoutHostTiming());
        // 3145.37875 and 3145.378750 are equal doubles but not identical JSON.
        assertNotEquals(Report.parse(A).withoutHostTiming(), Report.parse(A.replace("3145.37875", "3145.378750")).withoutHostTiming());
        assertEquals("""
                {
                  "scenario": "munmap-storm",
                  "backend": "native",
                  "seed": 3,
                  "counters": {
                    "ipis_sent": 1356,
                    "hypercalls": 0
                  },
                  "metrics": {
                    "munmap_ns": {
                      "mean": 3145.37875,
                      "unit": "ns"
                    }
                  },
                  "hazards": []
                }
                """, Report.parse(A).withoutHostTiming());
    }

    @Test
    void rejectsBrokenJson() {
        assertThrows(IllegalArgumentException.class, () -> Report.parse("{\"a\": 1,"));
        assertThrows(IllegalArgumentException.class, () -> Report.parse("{\"a\": 1} x"));
        assertThrows(IllegalArgumentException.class, () -> Report.parse("{\"a\": 1, \"a\": 2}"));
    }

    @Test
    void firstDifferenceShowsTheLinesThatDiffer() {
        assertEquals("""
                first difference at line 2 (first | second):
                b  |  B
                c  |  c
                (end)  |  d
                """, Report.firstDifference("a\nb\nc\n", "a\nB\nc\nd\n"));
    }
}
