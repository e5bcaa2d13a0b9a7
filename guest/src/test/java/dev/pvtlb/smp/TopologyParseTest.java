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
        assertEquals("topology cores must be an integer, got 'four'",
                assertThrows(ModelException.class, () -> Topology.parse("1xfourx2")).getMessage());
        assertEquals("topology threads must be between 1 and 8, got 9",
                assertThrows(ModelException.class, () -> Topology.parse("1x4x9")).getMessage());
        assertEquals("topology of 8192 CPUs exceeds the limit of 4096",
                assertThrows(ModelException.class, () -> Topology.parse("2x4096x1")).getMessage());
    }

    @Test
    void anErrorNamesTheSettingThatGaveTheTopology() {
        assertEquals("host.topology cores must be an integer, got 'A'",
                assertThrows(ModelException.class, () -> Scenario.of("ebizzy").set("host.topology", "2xAx2")).getMessage());
        assertEquals("host.topology sockets must be between 1 and 4096, got 0",
                assertThrows(ModelException.class, () -> Topology.parse("host.topology", "0x1x1")).getMessage());
        assertEquals("host.topology of 8192 CPUs exceeds the limit of 4096",
                assertThrows(ModelException.class, () -> Topology.parse("host.topology", "2x4096x1")).getMessage());
        assertEquals("topology threads must be between 1 and 8, got 0",
                assertThrows(ModelException.class, () -> Scenario.of("ebizzy").set("topology", "1x4x0")).getMessage());
    }
}
