package dev.pvtlb.testbackends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.pvops.KnobRegistry;
import dev.pvtlb.hazard.Hazard;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.scenario.ShootdownLoad;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;

/**
 * The broken backend plugs in through the SPI as a user's would, and the stale-translation
 * detector catches it; the guest's own knobs carry no test switch.
 */
class BrokenNativeBackendTest {
    @Test
    void isRegisteredThroughTheServicesFileOfTheTestSources() {
        PvBackend b = PvBackends.byName("broken-native");
        assertEquals(BrokenNativeBackend.Provider.class, b.getClass());
        assertFalse(b.virtualized());
        assertTrue(b.knobs().isEmpty(), "its knobs are the guest's own: " + b.knobs());
        assertTrue(KnobRegistry.common().stream().noneMatch(k -> k.name().startsWith("test.")), KnobRegistry.common()::toString);
    }

    @Test
    void noOtherCpuIsFlushedAndAStaleTranslationIsCaught() {
        GuestConfig cfg = GuestConfig.builder().topology(new Topology(1, 4, 2)).seed(5).backend("broken-native").build();
        Scripted s = ShootdownLoad.run(cfg, 12);
        assertEquals("broken-native", s.guest.pvOps().name());
        assertTrue(s.count(Counter.NR_TLB_REMOTE_FLUSH) >= 24, "12 madvise and 12 munmap flushes at least");
        assertEquals(0, s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED));
        assertTrue(s.guest.hazards().count() > 0, "another CPU uses a zapped page's translation");
        Hazard h = s.guest.hazards().hazards().get(0);
        assertEquals(HazardKind.STALE_TRANSLATION, h.kind(), h::toString);
        assertTrue(h.cpu() != 0, "the zapping CPU flushed itself: " + h);
    }
}
