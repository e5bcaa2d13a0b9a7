package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * Waking a task onto an idle CPU (Kernel.wakeIdle): on x86 bare metal the idle loop waits in MWAIT
 * on its thread flags with TIF_POLLING_NRFLAG set, so the waker's store of TIF_NEED_RESCHED wakes it
 * and no IPI goes out (sched_wake_idle_without_ipi); an arm64 CPU idles in WFI, which only an
 * interrupt ends, so the waker sends a reschedule IPI. The run: ebizzy -m on 4 CPUs with mmap_lock as
 * the rwsem, whose sleepers are woken by the releasing CPU.
 */
class IdleWakeTest {
    static RunReport ebizzy(String profile) {
        return Runner.run(Scenario.of("ebizzy").set("vcpus", "4").set("threads", "4").set("ops", "3").set("mmapLock", "rwsem")
                .set("alloc", "mmap").set("chunk_pages", "32").set("profile", profile));
    }

    @Test
    void anX86IdleCpuPollsAndIsWokenWithoutAnIpi() {
        RunReport r = ebizzy("x86-skylake");
        assertEquals(35, r.counters().get("mmap_lock_waits"));
        assertEquals(34, r.counters().get("wake_idle_without_ipi"), "every sleeper whose CPU had gone idle");
        assertEquals(0, r.counters().get("resched_ipis"));
    }

    @Test
    void anArm64IdleCpuWaitsInWfiAndTakesAReschedulingIpi() {
        RunReport r = ebizzy("arm64-thunderx2");
        assertEquals(32, r.counters().get("mmap_lock_waits"));
        assertEquals(0, r.counters().get("wake_idle_without_ipi"));
        assertEquals(31, r.counters().get("resched_ipis"), "every sleeper whose CPU had gone idle");
        assertEquals(33, r.counters().get("ipis_sent"), "and two flush IPIs");
    }
}
