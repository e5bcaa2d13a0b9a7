package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * munmap-storm with prefault=true writes each thread's working set before its loop, as its host
 * twin does: the loop's accesses then never fault, and with the zero page no access copies it.
 */
class MunmapStormPrefaultTest {
    static RunReport run(String prefault) {
        return Runner.run(Scenario.of("munmap-storm").set("vcpus", "2").set("threads", "2").set("pages", "8").set("ops", "3")
                .set("workset", "16").set("accesses", "200").set("zeroPage", "on").set("prefault", prefault));
    }

    @Test
    void theWorkingSetIsWrittenOnceBeforeTheLoop() {
        RunReport cold = run("false");
        RunReport warm = run("true");
        // 2 threads x 3 ops x 8 pages of the region (48 faults) and the working sets' 2 x 16 pages
        // (32) either way; cold, 26 of those 32 are read first, map the zero page, and fault again
        // on their first write to copy it, each copy flushing the page from the other CPU.
        assertEquals(106, cold.counters().get("page_faults"));
        assertEquals(80, warm.counters().get("page_faults"));
        assertEquals(6 + 26, cold.counters().get("nr_tlb_remote_flush"));
        assertEquals(6, warm.counters().get("nr_tlb_remote_flush"), "one per munmap, no zero-page copy");
    }
}
