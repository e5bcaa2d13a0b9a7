package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.model.ModelException;
import org.junit.jupiter.api.Test;

/**
 * munmap-storm's shape=shared: the host benchmark's program, one unmapper per round and readers
 * holding translations of its region, so each munmap's shootdown has work on every reader.
 */
class MunmapStormSharedShapeTest {
    static Scenario shared(String wait) {
        return Scenario.of("munmap-storm").set("shape", "shared").set("threads", "4").set("pages", "16").set("ops", "4")
                .set("wait", wait);
    }

    @Test
    void everyRoundShootsDownTheThreeReadersByInvlpg() {
        RunReport r = Runner.run(shared("spin"));
        assertEquals(4, r.counters().get("nr_tlb_remote_flush"));
        assertEquals(12, r.counters().get("nr_tlb_remote_flush_received"), "3 readers x 4 rounds");
        assertEquals(64, r.counters().get("nr_tlb_local_flush_one"), "16 pages, under the 33-page ceiling, x 4 rounds");
        assertEquals(64, r.counters().get("page_faults"), "the initiator writes 16 new pages a round");
        assertEquals(12, r.counters().get("page_tables_freed"), "PTE, PMD and PUD table of the lone region, each round");
        assertEquals(0, r.hazards().size());
    }

    @Test
    void sleepingReadersAreLazyAndOnlyTheFreedTablesBringThemTheFlush() {
        RunReport lazyAware = Runner.run(shared("sleep"));
        assertEquals(12, lazyAware.counters().get("nr_tlb_remote_flush_received"), "tables were freed: lazy CPUs are flushed");
        assertEquals(28, lazyAware.counters().get("context_switches"));
        RunReport skipAll = Runner.run(shared("sleep").set("lazy", "skip-nofree"));
        assertEquals(0, skipAll.counters().get("nr_tlb_remote_flush_received"), "every reader was lazy at each munmap");
    }

    @Test
    void badShapesAreOneLineErrors() {
        assertEquals("munmap-storm: shape=shared needs processes=1 and 2 <= threads <= 8 CPUs, got threads=16 processes=1",
                assertThrows(ModelException.class, () -> Runner.run(Scenario.of("munmap-storm").set("shape", "shared"))).getMessage());
        assertEquals("munmap-storm: parameter shape must be private, shared or munmap.c, got 'ring'",
                assertThrows(ModelException.class, () -> Runner.run(Scenario.of("munmap-storm").set("shape", "ring"))).getMessage());
        assertEquals("munmap-storm: parameter wait must be spin, sleep or gup, got 'nap'",
                assertThrows(ModelException.class, () -> Runner.run(Scenario.of("munmap-storm").set("wait", "nap"))).getMessage());
    }
}
