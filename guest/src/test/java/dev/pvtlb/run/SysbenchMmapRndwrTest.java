package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.ModelException;
import org.junit.jupiter.api.Test;

/**
 * sysbench fileio rndwr over mmap'd DAX files (SysbenchMmapRndwr): 16 KiB writes of four pages,
 * each page's write fault through the filesystem's DAX handler, and msync() of every file after
 * every fsync_freq writes, a one-page flush for each page it cleans.
 */
class SysbenchMmapRndwrTest {
    private static Scenario small(String... sets) {
        Scenario s = Scenario.of("sysbench-mmap-rndwr").seed(1).set("threads", "1").set("ops", "10").set("files", "2")
                .set("pages", "4096").set("fsync_freq", "5");
        for (String kv : sets) {
            String[] p = kv.split("=", 2);
            s.set(p[0], p[1]);
        }
        return s;
    }

    @Test
    void eachBlockWriteFaultsItsFourPagesThroughTheDaxHandler() {
        RunReport dax = Runner.run(small());
        RunReport pageCache = Runner.run(small("dax=false"));
        // 10 writes of 4 pages, no block written twice (1024 blocks): 40 faults in either mapping.
        assertEquals(40L, dax.counters().get("page_faults"));
        assertEquals(40L, pageCache.counters().get("page_faults"));
        // The one difference is each fault's cost: fault.dax.ns 10000 against fault.ns 800 (x86-skylake).
        assertEquals(40L * (10_000 - 800), dax.cpuTimeNs().get("kernel") - pageCache.cpuTimeNs().get("kernel"));
        assertEquals(405_408L, dax.cpuTimeNs().get("kernel"));
    }

    @Test
    void msyncCleansEveryPageWrittenSinceWithAOnePageFlush() {
        RunReport r = Runner.run(small());
        // After the 5th write the next 2 requests are an msync of each file: 20 dirty pages, 20
        // one-page flushes, local only (one thread, one CPU in the mm). The 10th write is the last:
        // the thread asks for no request after it.
        assertEquals(20L, r.counters().get("nr_tlb_local_flush_one"));
        assertEquals(0L, r.counters().get("nr_tlb_remote_flush"));
    }

    @Test
    void theFsyncRoundIsSharedByTheThreadsThatAskForIt() {
        RunReport r = Runner.run(small("threads=2"));
        // 20 writes in all: after the 5th, 10th and 15th (counted over both threads) the next two
        // requests sync the two files. 56 pages were dirty when their file's msync took the tags
        // (a write still under way on the other CPU is tagged after); each page's flush reaches
        // the other thread's CPU.
        assertEquals(80L, r.counters().get("page_faults"));
        assertEquals(r.counters().get("nr_tlb_remote_flush"), r.counters().get("nr_tlb_remote_flush_received"));
        assertEquals(56L, r.counters().get("nr_tlb_remote_flush"));
    }

    @Test
    void timedRunsCountTheWritesCompletedInTheWindowAfterTheWarmUp() {
        RunReport r = Runner.run(small("ops=timed", "warmup_us=500", "time_us=2000"));
        double perS = r.metrics().get("throughput").mean();
        // A write takes its four 10 us faults and the copy: about 42 us, so 47 complete in 2 ms.
        assertEquals(23_500, perS, 1e-6);
        // The thread stops at 2.5 ms, after the write or msync under way then.
        assertTrue(r.simulatedS() >= 0.0025 && r.simulatedS() < 0.0026, Double.toString(r.simulatedS()));
        // Twice the window, twice the writes, give or take the one cut at the window's end.
        double twice = Runner.run(small("ops=timed", "warmup_us=500", "time_us=4000")).metrics().get("throughput").mean();
        assertTrue(Math.abs(twice / perS - 1) < 0.03, twice + " vs " + perS);
    }

    @Test
    void opsIsTimedOrACount() {
        ModelException e = assertThrows(ModelException.class, () -> Runner.run(small("ops=forever")));
        assertEquals("sysbench-mmap-rndwr: parameter ops must be timed or an integer, got 'forever'", e.getMessage());
    }

    @Test
    void tooManyFilesForThePagesIsOneLineOfError() {
        ModelException e = assertThrows(ModelException.class, () -> Runner.run(small("files=2048")));
        assertEquals("sysbench-mmap-rndwr: 2048 files of 4096 pages in all leave less than a block (4 pages) per file", e.getMessage());
    }
}
