package dev.pvtlb.internal.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.model.ModelException;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ParamsTest {
    @Test
    void valuesIterateInNameOrder() {
        // The report writes params in this order; it must not depend on the JVM (Map.copyOf's does).
        Params p = new Params(new MunmapStorm(), Map.of("ops", "3"));
        assertEquals(List.of("accesses", "mainCpu", "ops", "pages", "prefault", "processes", "reads", "region", "settle_us", "shape", "threads", "wait", "workset"), List.copyOf(p.values().keySet()));
        assertEquals("3", p.values().get("ops"));
    }

    @Test
    void aSwitchIsTrueOrFalseAndNothingElse() {
        assertEquals(true, new Params(new MunmapStorm(), Map.of("prefault", " true")).bool("prefault"));
        assertEquals(false, new Params(new MunmapStorm(), Map.of()).bool("prefault"));
        ModelException e = assertThrows(ModelException.class, () -> new Params(new MunmapStorm(), Map.of("prefault", "yes")).bool("prefault"));
        assertEquals("munmap-storm: parameter prefault must be true or false, got 'yes'", e.getMessage());
    }
}
