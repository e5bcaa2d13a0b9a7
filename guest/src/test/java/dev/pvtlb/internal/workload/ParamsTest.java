package dev.pvtlb.internal.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParamsTest {
    @Test
    void valuesIterateInNameOrder() {
        // The report writes params in this order; it must not depend on the JVM (Map.copyOf's does).
        Params p = new Params(new MunmapStorm(), Map.of("ops", "3"));
        assertEquals(List.of("accesses", "mainCpu", "ops", "pages", "processes", "reads", "region", "shape", "threads", "wait", "workset"), List.copyOf(p.values().keySet()));
        assertEquals("3", p.values().get("ops"));
    }
}
