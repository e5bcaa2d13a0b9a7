package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * mmapLock=rwsem in whole runs: tasks sleep on mm->mmap_lock and are woken, on this x86 bare
 * metal, by a store to the idle CPU's polled flags (no IPI; Kernel.wakeIdle).
 * ebizzy -m (alloc=mmap) takes the lock as a writer twice per record; ebizzy -M (alloc=heap)
 * only reads it.
 */
class MmapLockRunTest {
    static Scenario ebizzy(String lock) {
        return Scenario.of("ebizzy").set("vcpus", "4").set("threads", "4").set("ops", "3").set("mmapLock", lock)
                .set("alloc", "mmap").set("chunk_pages", "32");
    }

    @Test
    void ebizzyMinusCapitalMOnlyReadsTheLock() {
        RunReport r = Runner.run(ebizzy("rwsem").set("alloc", "heap"));
        assertEquals(0, r.counters().get("mmap_lock_waits"), "faults and madvise(MADV_DONTNEED) are readers");
        assertEquals(384, r.counters().get("page_faults"), "4 threads x 3 records x 32 pages");
        assertEquals(12, r.counters().get("nr_tlb_remote_flush"), "one madvise per record flushes the other CPUs");
    }

    @Test
    void withoutTheLockNobodyWaits() {
        RunReport r = Runner.run(ebizzy("off"));
        assertEquals(0, r.counters().get("mmap_lock_waits"));
        assertEquals(384, r.counters().get("page_faults"), "4 threads x 3 chunks x 32 pages");
    }

    @Test
    void writersSerialiseAndFaultsQueueBehindThem() {
        RunReport r = Runner.run(ebizzy("rwsem"));
        assertEquals(384, r.counters().get("page_faults"), "the same work");
        assertEquals(35, r.counters().get("mmap_lock_waits"), "writers that find a running writer spin instead of sleeping");
        assertEquals(0, r.hazards().size());
    }

    @Test
    void withPerVmaLocksFaultsNeverWaitButWritersStillSerialise() {
        RunReport r = Runner.run(ebizzy("vma"));
        assertEquals(384, r.counters().get("page_faults"), "the same work");
        assertEquals(7, r.counters().get("mmap_lock_waits"), "only mmap and munmap wait on each other (35 with rwsem, where faults queue too)");
        assertEquals(0, r.hazards().size());
    }

    @Test
    void theLockCostsThroughput() {
        double off = Runner.run(ebizzy("off")).metrics().get("records_per_s").mean();
        double rwsem = Runner.run(ebizzy("rwsem")).metrics().get("records_per_s").mean();
        assertEquals(58305, Math.round(rwsem));
        assertEquals(true, rwsem < off, "off " + off + " rwsem " + rwsem);
    }
}
