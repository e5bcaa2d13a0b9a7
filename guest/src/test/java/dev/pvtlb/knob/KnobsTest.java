package dev.pvtlb.knob;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.pvops.GuestKnobs;
import dev.pvtlb.model.ModelException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KnobsTest {
    @Test
    void defaultsAreCurrentLinux() {
        Knobs k = Knobs.defaults(GuestKnobs.SPECS);
        assertEquals(Map.of("lazy", "skip", "native.concurrentFlush", "true", "native.smtSiblingDedup", "false",
                "nestedFlush", "flush", "tableFree", "rcu", "shouldFlushTlb", "lazy", "mremapFlush", "under-ptl",
                "tableBatch", "ok", "memoryModel", "sc", "switchMmBarrier", "smp_mb"), k.values());
    }

    @Test
    void unknownKnobsAndValuesAreRefusedWithTheAlternatives() {
        ModelException a = assertThrows(ModelException.class, () -> Knobs.of(GuestKnobs.SPECS, Map.of("lazzy", "off")));
        assertEquals("unknown knob 'lazzy' (known: lazy, memoryModel, mremapFlush, native.concurrentFlush, native.smtSiblingDedup, nestedFlush, shouldFlushTlb, switchMmBarrier, tableBatch, tableFree)", a.getMessage());
        ModelException b = assertThrows(ModelException.class,
                () -> Knobs.of(GuestKnobs.SPECS, Map.of("native.concurrentFlush", "maybe")));
        assertEquals("knob native.concurrentFlush cannot be 'maybe' (allowed: true|false)", b.getMessage());
    }
}
