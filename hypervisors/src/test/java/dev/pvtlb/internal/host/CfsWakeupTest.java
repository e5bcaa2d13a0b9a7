package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import org.junit.jupiter.api.Test;

/** host.scheduler=cfs: CFS's wake-up placement, wake-up preemption and slice (fair.c up to 6.5). */
class CfsWakeupTest {
    private static final dev.pvtlb.internal.profile.Costs SKYLAKE =
            new dev.pvtlb.internal.profile.Costs(dev.pvtlb.profile.Profile.load(dev.pvtlb.profile.Profile.DEFAULT));

    @Test
    void tunablesScaleWithTheLogOfUpToEightCpus() {
        CfsWakeup big = new CfsWakeup(64, SKYLAKE); // factor 4: latency 24 ms, wake-up granularity 4 ms
        assertEquals(12_000_000, big.slice(2), "24 ms period shared by two");
        assertEquals(3_000_000, big.slice(10), "past sched_nr_latency: 10 x 3 ms min granularity, shared by ten");
        CfsWakeup one = new CfsWakeup(1, SKYLAKE); // factor 1
        assertEquals(3_000_000, one.slice(2));
    }

    @Test
    void aSleeperIsPlacedHalfALatencyBackAndPreemptsPastTheGranularity() {
        CfsWakeup c = new CfsWakeup(64, SKYLAKE);
        assertEquals(88_000_000, c.place(0, 100_000_000), "GENTLE_FAIR_SLEEPERS: min_vruntime - 12 ms");
        assertEquals(99_000_000, c.place(99_000_000, 100_000_000), "a thread that slept briefly keeps its own vruntime");
        assertTrue(c.preempts(100_000_000, 88_000_000), "12 ms ahead > 4 ms");
        assertFalse(c.preempts(100_000_000, 96_000_000), "exactly the granularity does not preempt");
    }

    /**
     * ebizzy -m (mmap and munmap write mmap_lock) on 4 vCPUs, a CPU-bound VM beside it: each lock handoff wakes a
     * halted vCPU whose pCPU runs the other VM. EEVDF lets the woken vCPU wait for the current
     * slice; CFS's sleeper placement preempts at once.
     */
    @Test
    void aWokenVcpuWaitsForItsPcpuUnderEevdfAndPreemptsUnderCfs() {
        Scenario s = Scenario.of("ebizzy").backend("kvm").set("vms", "2").set("vcpus", "4").set("threads", "4")
                .set("mmapLock", "rwsem").set("alloc", "mmap").set("chunk_pages", "32");
        RunReport eevdf = Runner.run(s);
        RunReport cfs = Runner.run(s.set("host.scheduler", "cfs"));
        assertEquals(7400, Math.round(eevdf.metrics().get("records_per_s").mean()));
        assertEquals(21706, Math.round(cfs.metrics().get("records_per_s").mean()));
    }

    /**
     * A host slice, to a workload that runs for a number of them, is the host scheduler's: ebizzy
     * ops=timed with host_slices=5 on 4 pCPUs runs 5 x 9 ms under CFS (sched_latency 6 ms x 3,
     * shared by two threads) where EEVDF's base slice is the profile's 3 ms.
     */
    @Test
    void aTimedRunLastsTheHostSchedulersSlices() {
        Scenario s = Scenario.of("ebizzy").backend("kvm").set("vcpus", "4").set("threads", "4")
                .set("ops", "timed").set("host_slices", "5");
        RunReport eevdf = Runner.run(s);
        RunReport cfs = Runner.run(s.copy().set("host.scheduler", "cfs"));
        assertEquals(15_000_001, Math.round(eevdf.simulatedS() * 1e9), "5 slices of 3 ms: the run ends with its window");
        assertEquals(45_000_001, Math.round(cfs.simulatedS() * 1e9), "5 slices of 9 ms");
        try (Guest g = Guest.boot(s.copy().set("host.scheduler", "cfs").guestConfig(0))) {
            assertEquals(9_000_000, KernelBoot.of(g).vcpuHost().sharedSliceNs());
        }
    }

    /**
     * warmup_us: a timed run leaves that much virtual time out before its window. The warm-up only
     * stops records from counting, so the run with a 6 ms warm-up and 5 slices of 3 ms counts exactly
     * the records the plain 7-slice run completes after the plain 2-slice run ends.
     */
    @Test
    void aWarmUpComesBeforeTheWindowAndItsRecordsAreNotCounted() {
        Scenario s = Scenario.of("ebizzy").backend("kvm").set("vms", "2").set("vcpus", "4").set("threads", "4").set("ops", "timed");
        RunReport seven = Runner.run(s.copy().set("host_slices", "7"));
        RunReport two = Runner.run(s.copy().set("host_slices", "2"));
        RunReport warm = Runner.run(s.copy().set("host_slices", "5").set("warmup_us", "6000"));
        assertEquals(21_000_001, Math.round(warm.simulatedS() * 1e9), "6 ms of warm-up, then 5 slices of 3 ms");
        long all = Math.round(seven.metrics().get("records_per_s").mean() * 0.021);
        long first = Math.round(two.metrics().get("records_per_s").mean() * 0.006);
        long after = Math.round(warm.metrics().get("records_per_s").mean() * 0.015);
        assertEquals(all - first, after);
        assertTrue(first > 0 && after > 0, first + " then " + after);
        dev.pvtlb.model.ModelException e = org.junit.jupiter.api.Assertions.assertThrows(dev.pvtlb.model.ModelException.class,
                () -> Runner.run(s.copy().set("ops", "4").set("warmup_us", "1000")));
        assertEquals("ebizzy: warmup_us needs a timed run (ops=timed, or ops=auto with other VMs on the host), got ops=4", e.getMessage());
    }
}
