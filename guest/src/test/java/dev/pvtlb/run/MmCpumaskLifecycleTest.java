package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.internal.mm.Mm;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * x86.mmCpumask: the mm_cpumask lifecycle of each release. munmap-storm with 3 processes on 8
 * CPUs puts threads of two processes on each CPU, so CPUs switch between mms: cleared on switch
 * (until 6.13), a CPU that left gets the next flush and clears its bit then (209954cbc7d0), or it
 * is skipped unless the mm's cpumask is being trimmed, once a second (6db2526c1d69, with
 * should_flush_tlb()'s loaded_mm check). The counts pin the model's timing at this commit. The
 * threads are not pinned and the munmaps write-lock mmap_lock (the defaults sched.balance=idle,
 * mmapLock=vma): a thread asleep on the lock leaves its CPU idle, the CPU pulls a queued thread of
 * any process, and 280 to 500 migrations put each mm on more CPUs, whose bits the modes below
 * keep or drop differently. A
 * sleeper is woken without an IPI (the idle CPU polls its flags in MWAIT), so every IPI is a
 * flush's. Under clear-on-switch 28 of the 800 munmaps find no other CPU in the mask and flush
 * only locally.
 */
class MmCpumaskLifecycleTest {
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "clear-on-switch, lazy, 772, 2149, 2149",
        "lazy, lazy, 795, 2328, 2300",
        "lazy-trim, switching, 800, 2367, 2365"
    })
    void whereTheBitOfACpuThatLeftGoesDecidesWhoIsFlushed(String mode, String shouldFlushTlb, long flushes, long received, long ipis) {
        RunReport r = Runner.run(Scenario.of("munmap-storm").set("processes", "3").set("x86.mmCpumask", mode)
                .set("shouldFlushTlb", shouldFlushTlb));
        assertEquals(flushes, r.counters().get("nr_tlb_remote_flush"));
        assertEquals(received, r.counters().get("nr_tlb_remote_flush_received"));
        assertEquals(ipis, r.counters().get("ipis_sent"));
    }

    @Test
    void clearOnSwitchIsTheDefault() {
        RunReport plain = Runner.run(Scenario.of("munmap-storm").set("processes", "3"));
        assertEquals(2149, plain.counters().get("nr_tlb_remote_flush_received"));
    }

    @Test
    void theCpumaskIsTrimmedAtMostOnceASecond() {
        Mm mm = new Mm(1, 1, 1, 8, false);
        assertFalse(mm.shouldTrimCpumask(500_000_000L, 1_000_000_000L), "init_new_context() sets next_trim_cpumask a second ahead");
        assertFalse(mm.shouldTrimCpumask(1_000_000_000L, 1_000_000_000L), "time_after() is strict");
        assertTrue(mm.shouldTrimCpumask(1_000_000_001L, 1_000_000_000L));
        assertFalse(mm.shouldTrimCpumask(1_500_000_000L, 1_000_000_000L));
        assertTrue(mm.shouldTrimCpumask(2_000_000_002L, 1_000_000_000L));
    }
}
