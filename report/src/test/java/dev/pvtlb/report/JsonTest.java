package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void mapsKeepTheirOrderAndNumbersPrintTheSameEveryTime() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("z", 1L);
        m.put("a", 0.1 + 0.2);
        m.put("n", Double.NaN);
        m.put("l", List.of("x\"y\n", true));
        m.put("e", Map.of());
        assertEquals("{\n  \"z\": 1,\n  \"a\": 0.3,\n  \"n\": null,\n  \"l\": [\n    \"x\\\"y\\n\",\n    true\n  ],\n"
                + "  \"e\": {}\n}\n", Json.write(m));
    }

    @Test
    void numbersHaveAtMostSixDecimals() {
        assertEquals("2", Json.number(2.0));
        assertEquals("0.333333", Json.number(1.0 / 3));
        assertEquals("-1.5", Json.number(-1.5));
        assertEquals("null", Json.number(Double.POSITIVE_INFINITY));
    }

    @Test
    void controlCharactersAreEscaped() {
        assertEquals("\"a\\u0001b\\tc\\r\"", Json.quote("a\u0001b\tc\r"));
    }
}
