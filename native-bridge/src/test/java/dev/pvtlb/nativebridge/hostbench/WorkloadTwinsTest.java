package dev.pvtlb.nativebridge.hostbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.probe.HostProbe;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Sanity of the workload twins at small sizes: every thread runs its loop, each loop gives one sample. */
class WorkloadTwinsTest {
    private static final BenchLimits LIMITS = new BenchLimits(1, 4, Duration.ofSeconds(20));

    private final NativeOs os = NativeOs.select("ffm");
    private final WorkloadTwins twins = new WorkloadTwins(os, new HostBench(os, new HostProbe()));
    private final int[] cpus = os.onlineCpus() > 1 ? new int[] {0, 1} : new int[] {0};

    @Test
    void munmapStormUnmapsOnEveryThread() {
        HostBenchResult r = twins.munmapStorm(2, cpus, 4, 3, 8, 100, LIMITS);
        assertEquals("munmap-storm", r.benchmark());
        assertEquals(2, r.threads());
        assertEquals(List.of("munmap_ns"), List.copyOf(r.metrics().keySet()));
        assertEquals(2 * 3, r.metrics().get("munmap_ns").samples(), "three munmaps on each of two threads");
        assertTrue(r.metrics().get("munmap_ns").median() > 0);
    }

    @Test
    void tlbFlush2LoopsOnEveryThread() {
        HostBenchResult r = twins.tlbFlush2(2, cpus, 4, 5, LIMITS);
        assertEquals(List.of("loop_ns", "loops_per_s"), List.copyOf(r.metrics().keySet()));
        assertEquals(2 * 5, r.metrics().get("loop_ns").samples());
        assertEquals(10, r.iterations());
    }

    @Test
    void mprotectNoiseRunsTheVictimAloneBesideANoiseProcessAndBesideTheControls() {
        HostBenchResult r = twins.mprotectNoise(cpus, 4, 2, 10, 1, 3, LIMITS);
        assertEquals(List.of("victim_alone_ms", "victim_ms", "victim_busy_ms", "victim_syscalls_ms", "victim_reads_alone_ms",
                "victim_reads_ms", "victim_reads_busy_ms", "victim_reads_syscalls_ms"), List.copyOf(r.metrics().keySet()));
        for (var m : r.metrics().values()) {
            assertEquals(3, m.samples(), "three rounds of each: alone, beside mprotect, beside the two controls");
        }
        assertEquals(4 * 3, r.iterations());
    }

    @Test
    void aTwinNeedsAThread() {
        assertThrows(IllegalArgumentException.class, () -> twins.munmapStorm(0, cpus, 4, 1, 4, 1, LIMITS));
        assertThrows(IllegalArgumentException.class, () -> twins.mprotectNoise(cpus, 4, 1, 1, 1, 0, LIMITS));
    }
}
