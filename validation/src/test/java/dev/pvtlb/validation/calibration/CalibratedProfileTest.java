package dev.pvtlb.validation.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.nativebridge.hostbench.Metric;
import dev.pvtlb.profile.Profile;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The mapping from host figures to profile keys, on figures chosen by hand. */
class CalibratedProfileTest {
    private static final Profile BASE = Profile.load(Profile.DEFAULT);

    private static HostMeasurements host(String remoteFlush, List<Integer> remoteCpus, double alone, double remote) {
        return new HostMeasurements("Test CPU", 4, "KVM", remoteFlush, "ffm", 0, remoteCpus, remoteCpus.size(), 16,
                figure(150), figure(alone), figure(remote), figure(9000), figure(12000));
    }

    private static Metric figure(double median) {
        return new Metric(median * 1.5, median, median / 10, "ns", 200);
    }

    private static Profile parse(CalibratedProfile p) {
        return Profile.parse(p.yaml(), "calibrated.yaml");
    }

    @Test
    void getpidBecomesSyscallNsAndEveryOtherKeyKeepsTheBase() {
        CalibratedProfile p = new CalibratedProfile(host("native IPI", List.of(1), 5000, 7000), BASE);
        Profile loaded = parse(p);
        assertEquals("host-calibrated", loaded.name());
        assertEquals(150.0, loaded.get("syscall.ns"));
        for (String key : Profile.KEYS) {
            if (!p.values().containsKey(key)) {
                assertEquals(BASE.get(key), loaded.get(key), key);
            }
        }
        assertTrue(p.yaml().contains("extends: x86-skylake\n"), p.yaml());
        assertTrue(p.yaml().contains("# Host: Test CPU, 4 logical CPUs, hypervisor KVM, remote TLB flush by native IPI."), p.yaml());
    }

    @Test
    void nativeIpiHostDerivesTheIpiLatencyFromTheMunmapDifference() {
        // 2 remote CPUs add 3000 ns; the model adds 2*50 (send) + 404/2 (irq entry) + 20 (csd) besides the latency.
        CalibratedProfile p = new CalibratedProfile(host("native IPI", List.of(1, 2), 5000, 8000), BASE);
        assertEquals(Map.of("syscall.ns", 150.0, "ipi.latency.min.ns", 2678.0, "ipi.latency.max.ns", 2678.0), p.values());
        Profile loaded = parse(p);
        assertEquals(2678.0, loaded.get("ipi.latency.min.ns"));
        assertEquals(2678.0, loaded.get("ipi.latency.max.ns"));
        assertEquals(BASE.get("hypercall.ns"), loaded.get("hypercall.ns"));
        assertTrue(p.yaml().contains("= -(2*50 + 202 + 20) ns"), p.yaml());
        assertFalse(p.yaml().contains("#   ipi.latency.min.ns"), "a key set is not also listed as left at the base: " + p.yaml());
    }

    @Test
    void kvmPvFlushStillSendsIpisToRunningVcpus() {
        CalibratedProfile p = new CalibratedProfile(host("kvm pv tlb flush", List.of(1), 5000, 6000), BASE);
        assertEquals(1000.0 - 50 - 202 - 20, p.values().get("ipi.latency.min.ns"));
        assertTrue(p.yaml().contains("VM exits"), p.yaml());
    }

    @Test
    void hypercallHostSetsHypercallNsToTheWholeDifferenceAndLeavesIpiKeys() {
        CalibratedProfile p = new CalibratedProfile(host("hypercall (PVM_HC_FLUSH_TLB_MULTI)", List.of(1, 2, 3), 140_000, 158_000.25), BASE);
        assertEquals(Map.of("syscall.ns", 150.0, "hypercall.ns", 18000.3), p.values());
        Profile loaded = parse(p);
        assertEquals(BASE.get("ipi.latency.min.ns"), loaded.get("ipi.latency.min.ns"));
        assertTrue(p.yaml().contains("hypercall.ns, derived"), p.yaml());
    }

    @Test
    void aShootdownHiddenByNoiseSetsNoKeyAndSaysWhy() {
        CalibratedProfile p = new CalibratedProfile(host("native IPI", List.of(1), 9000, 8000), BASE);
        assertEquals(Map.of("syscall.ns", 150.0), p.values());
        assertTrue(p.yaml().contains("Remote shootdown: not mapped. munmap with remote CPUs was not slower"), p.yaml());
        assertEquals(BASE.get("ipi.latency.min.ns"), parse(p).get("ipi.latency.min.ns"));
    }

    @Test
    void aDifferenceSmallerThanTheModelsOtherIpiCostsSetsNoLatency() {
        CalibratedProfile p = new CalibratedProfile(host("native IPI", List.of(1), 5000, 5200), BASE);
        assertEquals(Map.of("syscall.ns", 150.0), p.values());
        assertTrue(p.yaml().contains("Solving for ipi.latency leaves nothing"), p.yaml());
    }

    @Test
    void noRemoteCpuAndUnknownMethodSetNothingRemote() {
        assertEquals(Map.of("syscall.ns", 150.0),
                new CalibratedProfile(host("native IPI", List.of(), 5000, 8000), BASE).values());
        CalibratedProfile unknown = new CalibratedProfile(host("unknown", List.of(1), 5000, 8000), BASE);
        assertEquals(Map.of("syscall.ns", 150.0), unknown.values());
        assertTrue(unknown.yaml().contains("flushes remote TLBs by unknown"), unknown.yaml());
    }

    /**
     * Primitives chosen by hand: a 10 us fault, munmaps of 64 and 128 pages of 100 and 120 us, a
     * lone mprotect of {@code mprotect} ns, a 200 ns line, a 64-page munmap with a remote CPU of 118 us.
     */
    private static HostPrimitives primitives(double large, double mprotect) {
        return new HostPrimitives(figure(10_000), figure(100_000), figure(large), figure(mprotect), figure(200), figure(118_000));
    }

    private static HostPrimitives primitives(double large) {
        return primitives(large, 190_000);
    }

    @Test
    void withPrimitivesTheIpiLatencyComesFromTheMprotectPairAndTheMunmapPairIsACrossCheck() {
        // host(): mprotect with the remote CPU running 9000 ns; alone 4000 ns.
        CalibratedProfile p = new CalibratedProfile(host("kvm pv tlb flush", List.of(1), 5000, 8000), primitives(120_000, 4000), BASE);
        // 9000 - 4000 - (50 + 202 + 20) = 4728 ns.
        assertEquals(4728.0, p.values().get("ipi.latency.min.ns"));
        assertEquals(4728.0, p.values().get("ipi.latency.max.ns"));
        assertTrue(p.yaml().contains("    mprotect of 16 pages, CPU(s) 1 running the mm"), p.yaml());
        // 118000 - 100000 - 272 = 17728 ns from the munmaps, noted beside it.
        assertTrue(p.yaml().contains("the munmap pair (a difference of two larger"), p.yaml());
        assertTrue(p.yaml().contains("and noisier medians) gives 17728 ns of IPI latency:"), p.yaml());
    }

    @Test
    void primitivesBecomeFaultPteVmaAndLineKeysWithTheirDerivations() {
        // 16-page lone munmap of 346 us (below the ceiling: flushed page by page).
        CalibratedProfile p = new CalibratedProfile(host("hypercall (PVM_HC_FLUSH_TLB_MULTI)", List.of(1), 346_000, 120_000),
                primitives(120_000), BASE);
        // pte.op.ns = (120000 - 100000) / 64 / 2; vma.op.ns = 100000 - 64*312.5 - 150 (syscall) - 33 (full flush).
        // The shootdown from the two 64-page munmaps: 118000 - 100000 ns, the 16-page pair is not used.
        assertEquals(Map.of("syscall.ns", 150.0, "fault.ns", 10_000.0, "pte.op.ns", 156.3, "vma.op.ns", 79817.0,
                "line.same_socket.ns", 200.0, "hypercall.ns", 18000.0), p.values());
        assertTrue(p.yaml().contains("    munmap of 64 pages, CPU(s) 1 running the mm"), p.yaml());
        Profile loaded = parse(p);
        assertEquals(156.3, loaded.get("pte.op.ns"));
        assertTrue(p.yaml().contains("  100000 - 64*312.5 - 150 - 33 = 79817 ns"), p.yaml());
        // (346000 - 100000 + 48*312.5 + 33) / 16 = 16314.6 ns per page flushed locally, noted, not mapped.
        assertTrue(p.yaml().contains("/ 16 pages = 16314.6 ns per page flushed"), p.yaml());
        assertEquals(BASE.get("invlpg.ns"), loaded.get("invlpg.ns"));
        assertTrue(p.yaml().contains("The model charges syscall.ns + vma.op.ns + pte.op.ns per page + the local flush = 84067.8 ns."),
                p.yaml());
    }

    @Test
    void aLargerMunmapThatIsNotSlowerSetsNoZapKeys() {
        CalibratedProfile p = new CalibratedProfile(host("native IPI", List.of(1), 5000, 5000), primitives(90_000), BASE);
        // native IPI: 118000 - 100000 - (50 + 202 + 20) ns of IPI latency.
        assertEquals(Map.of("syscall.ns", 150.0, "fault.ns", 10_000.0, "line.same_socket.ns", 200.0,
                "ipi.latency.min.ns", 17728.0, "ipi.latency.max.ns", 17728.0), p.values());
        assertTrue(p.yaml().contains("Per-page zap and free: not mapped. A larger munmap was not slower:"), p.yaml());
    }

    @Test
    void theSameFiguresGiveTheSameFile() {
        HostMeasurements m = host("native IPI", List.of(1), 5000, 8000);
        assertEquals(new CalibratedProfile(m, BASE).yaml(), new CalibratedProfile(m, BASE).yaml());
    }
}
