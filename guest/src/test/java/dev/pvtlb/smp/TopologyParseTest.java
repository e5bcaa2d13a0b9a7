package dev.pvtlb.smp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.run.Scenario;
import org.junit.jupiter.api.Test;

class TopologyParseTest {
    @Test
    void socketsCoresThreadsAsScenariosAndTheJUnitExtensionWriteThem() {
        assertEquals(new Topology(2, 28, 2), Topology.parse("2x28x2"));
        assertEquals(Topology.parse("1x4x2"), Scenario.of("munmap-storm").set("topology", "1x4x2").guestConfig(0).topology());
    }

    @Test
    void aMalformedTopologyIsOneLine() {
        assertEquals("topology must be SOCKETSxCORESxTHREADS (e.g. 1x4x2), got '4x2'",
                assertThrows(ModelException.class, () -> Topology.parse("4x2")).getMessage());
        assertEquals("cores must be an integer, got 'four'",
                assertThrows(ModelException.class, () -> Topology.parse("1xfourx2")).getMessage());
        assertEquals("threads must be between 1 and 8, got 9",
                assertThrows(ModelException.class, () -> Topology.parse("1x4x9")).getMessage());
        assertEquals("topology of 8192 CPUs exceeds the limit of 4096",
                assertThrows(ModelException.class, () -> Topology.parse("2x4096x1")).getMessage());
    }
}
