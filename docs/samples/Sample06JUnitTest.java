package samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.junit.PvtlbExtension;
import dev.pvtlb.junit.PvtlbGuest;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sample 6: pvtlb in your own JUnit 5 tests. With the extension, a {@code Guest} parameter
 * annotated {@code @PvtlbGuest} is booted as annotated and closed after the test, even a
 * failing one. Run by the samples module's test phase (no .out file: it prints nothing).
 */
@ExtendWith(PvtlbExtension.class)
class Sample06JUnitTest {
    /** Runs a small munmap storm on {@code g} until every task has exited. */
    static void munmapStorm(Guest g) {
        Scenario s = Scenario.of("munmap-storm").set("threads", "4").set("ops", "5");
        s.setUp(g);
        g.run(Long.MAX_VALUE);
        assertEquals(0, g.liveTasks(), "every task ran to its end");
    }

    @Test
    void bareMetalFlushesByIpi(@PvtlbGuest(cpus = 4) Guest g) {
        munmapStorm(g);
        assertTrue(g.vmstat().get(Counter.NR_TLB_REMOTE_FLUSH) > 0, "munmaps shoot down the other threads' CPUs");
        assertTrue(g.vmstat().get(Counter.IPIS_SENT) > 0, "native flushes send IPIs");
        assertEquals(0, g.vmstat().get(Counter.HYPERCALLS), "bare metal makes no hypercalls");
        assertEquals(0, g.hazards().count(), "no stale translation, no walk after free");
    }

    /** mmapLock=off: no thread sleeps on mmap_lock, so no reschedule IPI wakes one; an IPI would be a flush's. */
    @Test
    void xenPvFlushesByHypercall(@PvtlbGuest(cpus = 4, backend = "xen-pv", knobs = {"tableFree=rcu", "mmapLock=off"}) Guest g) {
        munmapStorm(g);
        assertTrue(g.vmstat().get(Counter.HYPERCALLS) > 0, "Xen PV flushes by multicall");
        assertEquals(0, g.vmstat().get(Counter.IPIS_SENT), "no flush IPI in a Xen PV guest");
        assertEquals(0, g.hazards().count());
    }
}
