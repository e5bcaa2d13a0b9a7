package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.junit.PvtlbExtension;
import dev.pvtlb.junit.PvtlbGuest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The JUnit extension boots a virtualized guest with the host model, profile and tracing the annotation asks for. */
@ExtendWith(PvtlbExtension.class)
class PvtlbExtensionOnKvmTest {
    @Test
    void theHostModelProfileAndTracingComeFromTheAnnotation(
            @PvtlbGuest(cpus = 4, backend = "kvm", pcpus = 2, vms = 2, profile = "x86-skylake", tracePvOps = true,
                    speculation = true) Guest g) {
        assertEquals(2, g.config().pcpus());
        assertEquals(2, g.config().vms());
        assertEquals("x86-skylake", g.config().profile().name());
        assertTrue(g.config().tracePvOps());
        assertTrue(g.config().speculativeWalks());
        assertEquals("kvm", g.pvOps().name());
    }
}
