package dev.pvtlb.internal.backends;

import dev.pvtlb.internal.kernel.KernelBoot;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.flush.FlushChecker;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.internal.workload.Syscall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each backend doing what its mechanism dictates, on scenarios small enough to count by hand. */
class BackendScenarioTest {
    // ------------------------------------------------------------------ kvm: preempted vCPUs

    static final int MUNMAPS = 100;

    /**
     * Two VMs of 4 vCPUs on 4 pCPUs (every pCPU shared with a vCPU of the other VM). In ours,
     * vCPU 0 unmaps one page {@value #MUNMAPS} times, 30 us apart, while vCPUs 1-3 keep
     * computing in the same mm (never idle, so always in mm_cpumask) for longer than the loop.
     */
    private static Scripted kvmMunmapLoop(boolean pvTlbFlush) {
        GuestConfig cfg = GuestConfig.builder().cpus(4).seed(11).backend("kvm").pcpus(4).vms(2)
                .knob("kvm.pvTlbFlush", Boolean.toString(pvTlbFlush)).build();
        Scripted s = new Scripted(cfg);
        long a = s.map(0, MUNMAPS);
        long b = s.map(1, 32);
        List<Op> zero = new ArrayList<>(List.of(Scripted.populate(a, MUNMAPS), Scripted.sleep(20_000)));
        for (int k = 0; k < MUNMAPS; k++) {
            zero.add(s.munmap(a + k * Scripted.PAGE, 1));
            zero.add(Scripted.sleep(30_000));
        }
        s.spawn(0, zero.toArray(Op[]::new));
        for (int c = 1; c < 4; c++) {
            s.spawn(c, Scripted.touch(b, 32, 1_000), new Spin(2_000_000_000L, 10_000));
        }
        s.run();
        return s;
    }

    @Test
    void kvmPvFlushSendsFewerIpisToPreemptedVcpusAndFlushesEachOnceAtEntry() {
        Scripted ipi = kvmMunmapLoop(false);
        // Each flush waits for all three targets, so each finds their csd queues empty: 3 IPIs.
        assertEquals(MUNMAPS, ipi.count(Counter.NR_TLB_REMOTE_FLUSH));
        assertEquals(3 * MUNMAPS, ipi.count(Counter.IPIS_SENT));
        assertEquals(0, ipi.count(Counter.DEFERRED_FLUSHES) + ipi.count(Counter.HYPERVISOR_FLUSHES));
        Scripted pv = kvmMunmapLoop(true);
        long deferred = pv.count(Counter.DEFERRED_FLUSHES);
        assertTrue(pv.count(Counter.VCPU_PREEMPTIONS) > 0, "two VMs on four pCPUs: vCPUs are preempted");
        assertTrue(deferred > 0, "some targets were preempted when flushed");
        assertEquals(deferred, pv.count(Counter.HYPERVISOR_FLUSHES),
                "each KVM_VCPU_FLUSH_TLB is flushed exactly once, at the vCPU's next entry");
        assertEquals(MUNMAPS, pv.count(Counter.NR_TLB_REMOTE_FLUSH));
        assertTrue(pv.count(Counter.IPIS_SENT) <= 3 * MUNMAPS - deferred,
                "a preempted target gets no IPI: " + pv.count(Counter.IPIS_SENT) + " IPIs, " + deferred + " deferred");
        assertEquals(0, pv.guest.hazards().count() + ipi.guest.hazards().count());
    }

    // ------------------------------------------------------------------ xen-pv: IRQs off

    /** CPU 1 holds translations of a region and then runs 50 us with IRQs off; CPU 0 unmaps the region meanwhile. */
    private static long[] unmapUnderIrqsOff(String backend) {
        Scripted s = new Scripted(GuestConfig.builder().cpus(2).seed(3).backend(backend).build());
        long a = s.map(0, 8);
        IrqsOffSection section = new IrqsOffSection(50_000);
        long[] returnedAt = {-1};
        long[] staleAtReturn = {-1};
        s.guest.checker(new FlushChecker() {
            @Override
            public void flushReturned(dev.pvtlb.smp.Cpu initiator, FlushTlbInfo info) {
                if (info.mm != s.mm || returnedAt[0] >= 0) {
                    return;
                }
                returnedAt[0] = s.guest.engine().now();
                KernelCpu c1 = s.guest.cpu(1);
                int pcid = c1.localTlb().pcid(c1.asidSlotOf(s.mm));
                long[] n = {0};
                c1.localTlb().tlb().forEach((p, vpn, pte, at) -> {
                    if (p == pcid && (vpn << 12) >= a && (vpn << 12) < a + 8 * Scripted.PAGE) {
                        n[0]++;
                    }
                });
                staleAtReturn[0] = n[0];
            }
        });
        s.spawn(1, Scripted.sleep(2_000), Scripted.touch(a, 8, 400), new Syscall(t -> section, null));
        s.spawn(0, Scripted.populate(a, 8), Scripted.sleep(10_000), s.munmap(a, 8));
        s.run();
        return new long[] {returnedAt[0], section.enabledAt, staleAtReturn[0], s.count(Counter.HYPERCALLS)};
    }

    @Test
    void xenPvFlushesAVcpuWithIrqsOffWithoutWaitingForIt() {
        long[] xen = unmapUnderIrqsOff("xen-pv");
        assertTrue(xen[0] > 0 && xen[1] > 0);
        assertTrue(xen[0] < xen[1], "the multicall returned at " + xen[0] + " ns, before CPU 1 enabled IRQs at " + xen[1]);
        assertEquals(0, xen[2], "CPU 1's TLB held no translation of the region when the flush returned");
        assertTrue(xen[3] >= 1, "one MMUEXT_TLB_FLUSH_MULTI multicall at least");
        long[] nat = unmapUnderIrqsOff("native");
        assertTrue(nat[0] > nat[1], "native waits for the IPI, taken at " + nat[1] + " ns; returned at " + nat[0]);
        assertEquals(0, nat[2]);
    }

    // ------------------------------------------------------------------ hyperv: VP >= 64

    /** Threads of one mm on CPU 0 and CPU 70 of an 80-vCPU guest; CPU 0 unmaps five times. */
    private static Scripted eightyVcpus(String ex) {
        Scripted s = new Scripted(GuestConfig.builder().cpus(80).seed(2).backend("hyperv").knob("hyperv.ex", ex).build());
        long a = s.map(0, 16);
        List<Op> zero = new ArrayList<>(List.of(Scripted.populate(a, 16), Scripted.sleep(5_000)));
        for (int k = 0; k < 5; k++) {
            zero.add(s.munmap(a + k * Scripted.PAGE, 1));
            zero.add(Scripted.sleep(2_000));
        }
        s.spawn(70, Scripted.touch(a + 8 * Scripted.PAGE, 8, 200_000));
        s.spawn(0, zero.toArray(Op[]::new));
        s.run();
        return s;
    }

    @Test
    void hypervWithoutExMasksFallsBackToNativeBeyondVp63() {
        Scripted noEx = eightyVcpus("false");
        assertEquals(5, noEx.count(Counter.NATIVE_FALLBACKS), "every flush names VP 70");
        assertEquals(5, noEx.count(Counter.NR_TLB_REMOTE_FLUSH), "native_flush_tlb_multi ran each time");
        assertEquals(5, noEx.count(Counter.IPIS_SENT), "one IPI to CPU 70 per flush");
        Scripted ex = eightyVcpus("true");
        assertEquals(0, ex.count(Counter.NATIVE_FALLBACKS));
        assertEquals(0, ex.count(Counter.IPIS_SENT));
        assertTrue(ex.count(Counter.HYPERCALLS) >= 5, "five _Ex flush hypercalls");
        assertEquals(0, noEx.guest.hazards().count() + ex.guest.hazards().count());
    }

    // ------------------------------------------------------------------ arm64: who pays

    /** mm A on CPUs 0-1 unmapping 4 pages ten times; mm B on CPUs 2-3 only touching its memory. */
    private static Scripted twoProcesses(String flush) {
        return twoProcesses(flush, "arm64.kpti=false");
    }

    private static Scripted twoProcesses(String flush, String kpti) {
        String[] kv = kpti.split("=", 2);
        GuestConfig cfg = GuestConfig.builder().cpus(4).seed(4).backend("arm64").knob("arm64.flush", flush).knob(kv[0], kv[1])
                .build();
        Scripted s = new Scripted(cfg);
        long a = s.map(0, 64);
        List<Op> zero = new ArrayList<>(List.of(Scripted.populate(a, 64), Scripted.sleep(5_000)));
        for (int k = 0; k < 10; k++) {
            zero.add(s.munmap(a + k * 4 * Scripted.PAGE, 4));
            zero.add(Scripted.touch(a + 48 * Scripted.PAGE, 16, 500));
        }
        s.spawn(0, zero.toArray(Op[]::new));
        s.spawn(1, Scripted.touch(a + 48 * Scripted.PAGE, 16, 200_000));
        dev.pvtlb.internal.mm.Mm b = s.guest.newMm();
        long bb = dev.pvtlb.internal.mm.Mm.MMAP_BASE;
        b.insertVma(bb, bb + 16 * Scripted.PAGE, true, false);
        for (int c = 2; c < 4; c++) {
            s.guest.spawn("b" + c, b, c, new dev.pvtlb.scenario.Script(new dev.pvtlb.internal.workload.Touch(bb, 16, 200_000, 0.5, false, null)));
        }
        s.run();
        return s;
    }

    @Test
    void arm64BroadcastChargesEveryCpuOfTheDomainWhileLocalChargesOnlyTheMask() {
        Scripted bc = twoProcesses("broadcast");
        // Four TLBI VAE1IS and the DSB ISH's Sync per unmap (DvmBroadcastCost): 4 x 20 + 20 ns.
        long perUnmap = DvmBroadcastCost.of(bc.guest.profile()).bystanderNs(4);
        assertEquals(100, perUnmap);
        assertEquals(40, bc.count(Counter.BROADCAST_FLUSHES), "ten unmaps of four pages: forty TLBI VAE1IS");
        for (int c = 1; c < 4; c++) {
            assertEquals(10 * perUnmap, bc.guest.cpuTime().get(c, TimeCategory.REMOTE_INVALIDATION),
                    "cpu" + c + " processed every broadcast, whether or not it ran mm A");
        }
        assertEquals(0, bc.count(Counter.IPIS_SENT));
        Scripted local = twoProcesses("local");
        assertEquals(0, local.count(Counter.BROADCAST_FLUSHES));
        assertEquals(10, local.count(Counter.IPIS_SENT), "one IPI to CPU 1 per unmap");
        for (int c = 2; c < 4; c++) {
            assertEquals(0, local.guest.cpuTime().get(c, TimeCategory.REMOTE_INVALIDATION), "cpu" + c);
            assertEquals(0, local.guest.cpuTime().get(c, TimeCategory.FLUSH_HANDLER), "cpu" + c + " never ran mm A");
        }
        assertTrue(local.guest.cpuTime().get(1, TimeCategory.FLUSH_HANDLER) > 0);
        assertEquals(0, bc.guest.hazards().count() + local.guest.hazards().count());
    }

    /** KPTI's __tlbi_user(): the same unmaps issue every TLBI twice, so each bystander handles 8 operations and the Sync. */
    @Test
    void arm64WithKptiBroadcastsEveryTlbiTwice() {
        Scripted kpti = twoProcesses("broadcast", "arm64.kpti=true");
        assertEquals(80, kpti.count(Counter.BROADCAST_FLUSHES), "ten unmaps of four pages, each TLBI for both ASIDs");
        long perUnmap = DvmBroadcastCost.of(kpti.guest.profile()).bystanderNs(8);
        assertEquals(180, perUnmap);
        for (int c = 1; c < 4; c++) {
            assertEquals(10 * perUnmap, kpti.guest.cpuTime().get(c, TimeCategory.REMOTE_INVALIDATION), "cpu" + c);
        }
    }

    // ------------------------------------------------------------------ invlpgb, rar

    @ParameterizedTest
    @ValueSource(strings = {"invlpgb", "rar"})
    void broadcastAndRemoteActionBackendsSendNoIpis(String backend) {
        RunReport r = Runner.run(Scenario.of("munmap-storm").backend(backend).seed(3));
        Map<String, Long> c = r.counters();
        assertEquals(0, c.get("ipis_sent"));
        assertEquals(0, c.get("nr_tlb_remote_flush_received"), "no handler runs on a target");
        long flushes = backend.equals("invlpgb") ? c.get("broadcast_flushes") : c.get("remote_action_requests");
        assertTrue(flushes > 0);
        RunReport nat = Runner.run(Scenario.of("munmap-storm").backend("native").seed(3));
        assertTrue(nat.counters().get("ipis_sent") > 0);
        assertTrue(r.metrics().get("munmap_ns").mean() < nat.metrics().get("munmap_ns").mean(),
                backend + " " + r.metrics().get("munmap_ns") + " vs native " + nat.metrics().get("munmap_ns"));
        assertTrue(r.hazards().isEmpty());
    }

    @Test
    void profileOverridesReachTheHostModel() {
        Profile p = Profile.load(Profile.DEFAULT).with(Map.of("host.slice.ns", 100_000.0), "test");
        GuestConfig cfg = GuestConfig.builder().topology(new Topology(1, 2, 1)).pcpus(1).backend("kvm").profile(p).build();
        try (var g = dev.pvtlb.internal.kernel.KernelBoot.boot(cfg)) {
            assertEquals(100_000, g.costs().hostSliceNs);
            assertTrue(!g.cpu(1).vcpuRunning(), "two vCPUs on one pCPU: the second waits");
        }
    }
}
