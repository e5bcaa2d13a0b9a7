package dev.pvtlb.nativebridge.hostbench;

import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.probe.HostProbe;
import dev.pvtlb.nativebridge.probe.TlbCounters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Sanity of the real host benchmarks at small sizes: they run, measure something, read the counters. */
class HostBenchTest {
    private static final BenchLimits SMALL = new BenchLimits(20, 4, Duration.ofSeconds(1));

    private final NativeOs os = NativeOs.select("ffm");
    private final HostProbe probe = new HostProbe();
    private final HostBench bench = new HostBench(os, probe);
    private final int[] cpus = os.onlineCpus() > 1 ? new int[] {0, 1} : new int[] {0};

    @Test
    void munmapStorm() {
        HostBenchResult r = bench.munmapStorm(1, cpus, SMALL);
        assertEquals("munmap-storm", r.benchmark());
        assertEquals(List.of("munmap_ns", "access_ns"), List.copyOf(r.metrics().keySet()));
        assertSane(r);
    }

    @Test
    void munmapAloneRunsNoRemoteThread() {
        HostBenchResult r = bench.munmapAlone(cpus[0], SMALL);
        assertEquals("munmap-alone", r.benchmark());
        assertEquals(0, r.threads());
        assertEquals(List.of(cpus[0]), r.cpus());
        assertEquals(List.of("munmap_ns"), List.copyOf(r.metrics().keySet()));
        assertSane(r);
    }

    @Test
    void aPairOfLoneMunmapSizesRunsInTurnsOneSampleOfEachPerRound() {
        HostBenchResult r = bench.munmapAlonePair(cpus[0], 8, SMALL);
        assertEquals("munmap-alone-pair", r.benchmark());
        assertEquals(0, r.threads());
        assertEquals(List.of("munmap_ns", "munmap_large_ns"), List.copyOf(r.metrics().keySet()));
        assertEquals(r.iterations(), r.metrics().get("munmap_ns").samples());
        assertEquals(r.iterations(), r.metrics().get("munmap_large_ns").samples());
        assertSane(r);
        assertThrows(IllegalArgumentException.class, () -> bench.munmapAlonePair(cpus[0], 0, SMALL));
    }

    @Test
    void mprotectNoise() {
        HostBenchResult r = bench.mprotectNoise(1, cpus, SMALL);
        assertEquals(List.of("victim_ms", "mprotect_ns"), List.copyOf(r.metrics().keySet()));
        assertEquals("ms", r.metrics().get("victim_ms").unit());
        assertSane(r);
    }

    @Test
    void madviseTouch() {
        HostBenchResult r = bench.madviseTouch(1, cpus, SMALL);
        assertEquals(List.of("madvise_touch_ns", "loops_per_s"), List.copyOf(r.metrics().keySet()));
        assertSane(r);
    }

    @Test
    void runsThroughJnaToo() {
        HostBenchResult r = new HostBench(NativeOs.select("jna"), probe).munmapStorm(1, cpus, SMALL);
        assertEquals("jna", r.backend());
        assertSane(r);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ffm", "jna"})
    void getpidCostIsPositive(String backend) {
        Metric m = new HostBench(NativeOs.select(backend), probe).getpidCost(5_000);
        assertTrue(m.mean() > 0, m.toString());
        assertEquals(5, m.samples());
    }

    @Test
    void badArgumentsAreRefusedBeforeAnyThreadStarts() {
        assertThrows(IllegalArgumentException.class, () -> bench.munmapStorm(0, cpus, SMALL));
        assertThrows(IllegalArgumentException.class, () -> bench.madviseTouch(0, cpus, SMALL));
        assertThrows(IllegalArgumentException.class, () -> bench.munmapStorm(1, new int[0], SMALL));
        assertThrows(IllegalArgumentException.class, () -> new BenchLimits(0, 4, Duration.ofSeconds(1)));
        assertTrue(BenchLimits.defaults().maxRun().compareTo(Duration.ofSeconds(5)) < 0);
    }

    @Test
    void anInvalidCpuSurfacesFromThePinnedThread() {
        var e = assertThrows(dev.pvtlb.nativebridge.NativeCallException.class,
                () -> bench.munmapStorm(1, new int[] {0, 1000}, SMALL));
        assertEquals("EINVAL", e.errnoName());
    }

    private void assertSane(HostBenchResult r) {
        assertTrue(r.iterations() > 0, "no rounds completed");
        assertTrue(r.elapsed().compareTo(SMALL.maxRun().plusSeconds(3)) < 0, "ran " + r.elapsed());
        r.metrics().forEach((name, m) -> {
            assertTrue(m.mean() > 0, name + " " + m);
            assertTrue(m.samples() > 0, name + " " + m);
            assertTrue(m.median() > 0, name + " " + m);
        });
        // Every counter this host has shows up as a delta; the rest are listed absent.
        TlbCounters now = probe.tlbCounters();
        assertEquals(now.shootdownTotal().isPresent(), r.counterDeltas().containsKey(TlbCounters.SHOOTDOWN_IRQS));
        for (String name : TlbCounters.VMSTAT_NAMES) {
            assertTrue(r.counterDeltas().containsKey(name) != r.absentCounters().contains(name), name);
            assertEquals(now.vmstat().containsKey(name), r.counterDeltas().containsKey(name), name);
        }
        r.counterDeltas().values().forEach(delta -> assertTrue(delta >= 0, r.counterDeltas().toString()));
        assertEquals(r.benchmark(), r.toMap().get("benchmark"));
    }
}
