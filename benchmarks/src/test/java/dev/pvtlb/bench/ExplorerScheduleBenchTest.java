package dev.pvtlb.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.pvtlb.explore.ScheduleRun;
import org.junit.jupiter.api.Test;

/** Schedules outside JMH: the reset guest runs schedule 0 exactly as the freshly booted one did. */
class ExplorerScheduleBenchTest {
    @Test
    void scheduleZeroRunsToTheEndCleanAndRepeatsExactlyAfterAReset() {
        ExplorerScheduleBench b = new ExplorerScheduleBench();
        b.setUp();
        try {
            ScheduleRun first = b.schedule();
            assertFalse(first.found(), "native IPIs wait for gup_fast");
            // 1092 steps (was 1090) and 7 choices (was 4): smp_call_function_many queues its csds and
            // sends its IPIs in two steps, as the kernel orders them, and the priced line transfers
            // change which CPUs' steps fall on the same instant (each such tie is a choice). 1113 and 4
            // since the data caches: a load costs what its line's level does, and fewer steps tie. 1122
            // since RCU table freeing has its costs: the unmap's call_rcu() and the softirq that frees the tables.
            assertEquals(1122, first.steps(), "schedule 0 of random seed 2 runs the scenario to its end");
            assertEquals(4, first.choices().size());
            for (int i = 0; i < 3; i++) {
                assertFalse(b.schedule().found(), "native IPIs wait for gup_fast");
            }
            b.next = 0;
            ScheduleRun again = b.schedule();
            assertEquals(first.steps(), again.steps());
            assertEquals(first.choices(), again.choices());
        } finally {
            b.tearDown();
        }
    }
}
