package dev.pvtlb.pvops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.Guest;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.VmStat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a backend attached is reachable from the guest, and its own counters are reported with the model's. */
class BackendOwnStateTest {
    @Test
    void aBackendsOpsObjectAndItsOwnCounterAreReachableFromTheGuest() {
        Scenario s = Scenario.of("munmap-storm").set("vcpus", "2").set("threads", "2").set("ops", "1");
        GuestConfig cfg = GuestConfig.builder().topology(s.guestConfig(0).topology()).backend(new OwnCounterBackend.Plugin()).build();
        try (Guest g = Guest.boot(cfg)) {
            s.setUp(g);
            g.run(Long.MAX_VALUE);
            OwnCounterBackend ops = g.backend(OwnCounterBackend.class);
            assertSame(ops, g.backend(GuestTableFree.class), "any type it is");
            // Each thread's munmap flushes the other CPU: two calls, as the model's own counter says.
            assertEquals(2, g.vmstat().get(Counter.NR_TLB_REMOTE_FLUSH));
            assertEquals(2L, g.vmstat().asMap().get("own_flush_calls"));
            List<String> keys = List.copyOf(g.vmstat().asMap().keySet());
            assertEquals("own_flush_calls", keys.getLast(), "after the model's counters");
            assertEquals(Counter.values().length + 1, keys.size());

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> g.backend(String.class));
            assertEquals("backend own-counter attached a dev.pvtlb.pvops.OwnCounterBackend, not a java.lang.String", e.getMessage());
        }
    }

    @Test
    void anOwnCounterIsOneByNameAndCannotTakeAModelName() {
        VmStat v = new VmStat();
        VmStat.Own a = v.own("mine");
        a.add(3);
        v.own("mine").inc();
        assertEquals(4, a.get(), "the same name is the same counter");
        v.reset();
        assertEquals(0, a.get());
        assertEquals("counter 'ipis_sent' is the model's own: choose another name",
                assertThrows(IllegalArgumentException.class, () -> v.own("ipis_sent")).getMessage());
        assertEquals("a counter name is 1 to 64 of a-z, 0-9 and _, got 'My Counter'",
                assertThrows(IllegalArgumentException.class, () -> v.own("My Counter")).getMessage());
    }
}
