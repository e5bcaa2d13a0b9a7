package dev.pvtlb.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.hazard.StepLog;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * rwsem_optimistic_spin() on the mmap_lock (mmapLock=rwsem): cpu0's mprotect() of 256 pages holds
 * the lock for writing while it changes their PTEs and flushes; cpu1's mprotect() comes while it
 * does and finds the owner running, so it waits in the kernel (lock_spin, not user time), takes the
 * flush IPI in its loop, and takes the lock at its first look after the release, never asleep.
 */
class RwsemSpinTest {
    @Test
    void aWriterSpinsInTheKernelUntilTheRunningOwnerReleasesTheLock() {
        Scripted s = new Scripted(GuestConfig.builder().cpus(2).seed(1).knob("mmapLock", "rwsem").build());
        long a = s.map(1, 256);
        long b = s.map(2, 1);
        s.spawn(0, Scripted.populate(a, 256), new Spin(1_000), s.mprotectRo(a, 256));
        s.spawn(1, new Spin(212_649), s.mprotectRo(b, 1));
        StepLog log = new StepLog(100_000);
        s.guest.stepLog(log);
        s.run();

        assertEquals(0, s.count(Counter.MMAP_LOCK_WAITS), "the second writer spun; it never slept");
        assertEquals(459, s.guest.cpuTime().get(1, TimeCategory.LOCK_SPIN), "215275 .. 215734 ns, then the flush IPI's handler");
        assertEquals(212_709, s.guest.cpuTime().get(1, TimeCategory.USER), "its Spin and two lock attempts' line costs: the wait is not user time");
        List<String> cpu1 = log.lines().stream().filter(l -> l.contains(" cpu1 ") && !l.contains("tlb:")).toList();
        int spin = indexOf(cpu1, "rwsem_optimistic_spin:t1");
        assertEquals(List.of("rwsem_optimistic_spin:t1", "generic_smp_call_function_interrupt", "generic_smp_call_function_interrupt #1",
                "generic_smp_call_function_interrupt #1", "rwsem_optimistic_spin:t1", "user:t1", "mprotect"),
                cpu1.subList(spin, spin + 7).stream().map(l -> l.substring(l.indexOf("cpu1 ") + 5)).toList(),
                "one spin step, the IPI taken in the loop, one look after the release, the attempt that takes the lock");
        long released = time(log.lines().stream().filter(l -> l.contains(" cpu0 mprotect #1")).findFirst().orElseThrow());
        assertEquals(215_976, released, "cpu0's mprotect() returns and releases the lock");
        assertEquals(216_331, time(cpu1.get(spin + 6)), "cpu1's mprotect() runs after its handler's end (216291 ns) and the attempt");
    }

    /** cpu1's page fault comes while cpu0's mprotect() holds the lock for writing: it read-locks the lock. */
    private static Scripted faultDuringMprotect(boolean readerSpin) {
        Scripted s = new Scripted(GuestConfig.builder().cpus(2).seed(1).knob("mmapLock", "rwsem")
                .knob("rwsem.readerSpin", String.valueOf(readerSpin)).build());
        long a = s.map(1, 256);
        long b = s.map(2, 1);
        s.spawn(0, Scripted.populate(a, 256), new Spin(1_000), s.mprotectRo(a, 256));
        s.spawn(1, new Spin(212_649), Scripted.populate(b, 1));
        s.run();
        return s;
    }

    @Test
    void from53ToBefore512AReaderSpinsOnARunningWriterInsteadOfSleeping() {
        Scripted spins = faultDuringMprotect(true);
        Scripted sleeps = faultDuringMprotect(false);
        assertEquals(0, spins.count(Counter.MMAP_LOCK_WAITS), "the fault's reader spun on the running writer");
        assertEquals(459, spins.guest.cpuTime().get(1, TimeCategory.LOCK_SPIN));
        assertEquals(1, sleeps.count(Counter.MMAP_LOCK_WAITS), "it slept until the writer's release woke it");
        assertEquals(0, sleeps.guest.cpuTime().get(1, TimeCategory.LOCK_SPIN));
        assertEquals(664, sleeps.guest.cpuTime().get(1, TimeCategory.IDLE), "its CPU idled meanwhile (220 ns at boot)");
        assertEquals(217_374, spins.guest.engine().now(), "the spinner takes the lock at the release and is done first");
        assertEquals(219_935, sleeps.guest.engine().now(), "the sleeper waits for the wake-up and its CPU to leave idle");
    }

    private static int indexOf(List<String> lines, String what) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).endsWith(what)) {
                return i;
            }
        }
        throw new AssertionError(what + " not in the log");
    }

    private static long time(String line) {
        return Long.parseLong(line.strip().split("\\s+")[0]);
    }
}
