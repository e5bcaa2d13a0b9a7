package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.model.ModelException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * munmap-storm shape=munmap.c, the program of the SMT-dedup figures (1 GiB region), the first 64 of
 * its 4096 munmaps, on the workload's 4-core, 8-thread desktop: one shootdown per munmap to the other 7
 * CPUs, the one present page each flushed by INVLPG; the dedup leaves 3 targets to a sender on
 * thread 0 of its core and 4 to one on thread 1.
 */
class MunmapTestProgramTest {
    static Scenario program(String mainCpu, String dedup) {
        return Scenario.of("munmap-storm").set("shape", "munmap.c").set("ops", "64")
                .set("mainCpu", mainCpu).set("native.smtSiblingDedup", dedup);
    }

    @ParameterizedTest(name = "main on cpu{0}, dedup {1}")
    @CsvSource({"0, false, 448", "0, true, 192", "4, false, 448", "4, true, 256"})
    void eachMunmapShootsDownTheOtherCpusOnce(String mainCpu, String dedup, long received) {
        RunReport r = Runner.run(program(mainCpu, dedup));
        assertEquals(64, r.counters().get("nr_tlb_remote_flush"));
        assertEquals(received, r.counters().get("nr_tlb_remote_flush_received"));
        assertEquals(0, r.counters().get("page_faults"), "the set-up populates outside the clock");
        assertEquals(0, r.hazards().size());
    }

    @Test
    void theMetricsAreThoseTheProgramPrints() {
        RunReport alone = Runner.run(program("0", "false").set("threads", "7"));
        RunReport shared = Runner.run(program("0", "false"));
        // The whole time over the 64 munmaps, the 10 ms sleep scaled to 64/4096 (2441 ns a munmap)
        // included. Alone on its CPU the main thread needs 4.7 us a munmap (27 ns more since munmap
        // write-locks mmap_lock, mmapLock=vma: two atomics on its count's line; 3.2 us before each
        // munmap tore its shmem file down, shmem.release.ns = 1000 ns; 2.5 us before SMT execution
        // sharing: its sibling CPU 4 runs a reader throughout, so its steps and its targets'
        // handlers take 1.54 times as long; the IPIs' flight does not); sharing it with a reader,
        // it waits out the reader's 0.75 ms slice (64 munmaps fit in the first of its own).
        assertEquals(7130.984375, alone.metrics().get("munmap_ns").mean(), 1e-6);
        assertEquals(16473.34375, shared.metrics().get("munmap_ns").mean(), 1e-6);
        // A reader's wall time per read: 16.77 ns with a CPU each, 30.01 ns two to a CPU (16.78 ns alone
        // before the munmaps took mmap_lock; 19.07 and
        // 30.36 before the shmem teardown lengthened the run; 11.06 and 17.54 before SMT execution
        // sharing: every reader's sibling executes, so each read and each
        // flush handler takes 1.54 times as long, and with fewer passes over its addresses in the
        // run the cold first pass weighs more in the mean).
        assertEquals(16.773148731518816, alone.metrics().get("access_ns").mean(), 1e-6);
        assertEquals(30.006090619307834, shared.metrics().get("access_ns").mean(), 1e-6);
    }

    @Test
    void opsBeyondTheMappingsAndRaggedRegionsAreOneLineErrors() {
        ModelException e = assertThrows(ModelException.class, () -> Runner.run(program("0", "false").set("region", "4096")
                .set("ops", "65")));
        assertEquals("munmap-storm: shape=munmap.c unmaps at most region/pages = 64 mappings, got ops=65", e.getMessage());
        e = assertThrows(ModelException.class, () -> Runner.run(program("0", "false").set("region", "4000")));
        assertEquals("munmap-storm: shape=munmap.c needs region to be a multiple of pages, got region=4000 pages=64", e.getMessage());
        e = assertThrows(ModelException.class, () -> Runner.run(program("8", "false")));
        assertEquals("munmap-storm: mainCpu=8 but the guest has 8 CPUs", e.getMessage());
    }
}
