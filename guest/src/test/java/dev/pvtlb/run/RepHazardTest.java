package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.hazard.HazardKind;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A report's hazards are typed; the JSON form keeps its keys and their order. */
class RepHazardTest {
    @Test
    void aHazardOfARepetitionAsTheReportWritesIt() {
        RunReport.RepHazard h = new RunReport.RepHazard(2, new Hazard(HazardKind.STALE_TRANSLATION, 1234, 3, "load of 0x1000"));
        Map<String, Object> m = h.toMap();
        assertEquals(List.of("kind", "rep", "time_ns", "cpu", "detail"), List.copyOf(m.keySet()));
        assertEquals(List.of("STALE_TRANSLATION", 2, 1234L, 3, "load of 0x1000"), List.copyOf(m.values()));
    }
}
