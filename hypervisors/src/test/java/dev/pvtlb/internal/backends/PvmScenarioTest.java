package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.flush.FlushChecker;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.stats.CostPart;
import dev.pvtlb.stats.Counter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The pvm backend on one unmap of one page, counted by hand (x86-skylake: hypercall 600 ns, VM
 * exit 600 ns, INVLPG 100 ns, IPI send 50 ns; the host's IPI latency pinned to 300 ns).
 */
class PvmScenarioTest {
    /**
     * vCPU 0 unmaps one page of a mapping vCPUs 1-3 touched and keep computing in, on {@code pcpus}
     * pCPUs. Returns the flush's time in pv_ops.flush_tlb_multi (from flushStarted to flushReturned,
     * less flush_tlb_mm_range()'s own setup), then counters; [2] is the VM exits during the flush
     * (halts and slice ends of the host model count too, outside it).
     */
    private static long[] unmapOnePage(int pcpus, String remoteFlush) {
        Profile p = Profile.load(Profile.DEFAULT).with(Map.of("ipi.latency.max.ns", 300.0), "test");
        GuestConfig cfg = GuestConfig.builder().cpus(4).seed(7).backend("pvm").pcpus(pcpus).profile(p)
                .knob("pvm.remoteFlush", remoteFlush).build();
        Scripted s = new Scripted(cfg);
        long a = s.map(0, 4);
        long[] span = {-1, -1, 0, 0};
        s.guest.checker(new FlushChecker() {
            @Override
            public void flushStarted(Cpu initiator, FlushTlbInfo info) {
                span[0] = s.guest.engine().now();
                span[2] = s.count(Counter.VMEXITS);
            }

            @Override
            public void flushReturned(Cpu initiator, FlushTlbInfo info) {
                span[1] = s.guest.engine().now();
                span[3] = s.count(Counter.VMEXITS);
            }
        });
        s.spawn(0, Scripted.populate(a, 4), Scripted.sleep(50_000), s.munmap(a, 1));
        for (int c = 1; c < 4; c++) {
            s.spawn(c, Scripted.touch(a + Scripted.PAGE, 3, 100), new Spin(5_000_000, 10_000));
        }
        s.run();
        long inMulti = span[1] - span[0] - s.guest.ledger().ns(CostPart.FLUSH_SETUP);
        return new long[] {inMulti, s.count(Counter.HYPERCALLS), span[3] - span[2], s.count(Counter.HYPERVISOR_FLUSHES),
                s.count(Counter.DEFERRED_FLUSHES), s.count(Counter.IPIS_SENT), s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED),
                s.guest.hazards().count()};
    }

    @Test
    void aShootdownToThreeRunningVcpusIsOneHypercallThatKicksEachTarget() {
        long[] r = unmapOnePage(4, "hypercall");
        // PVM_HC_FLUSH_TLB_MULTI (600) + the local page in the current and 3 cached roots (4 * 100)
        // + 3 host IPIs (3 * 50) + their latency (300) + the slowest target's exit (600) and flush (400);
        // then the shadow MMU's sync of the cleared entry flushes the VM: the caller's full flush (33)
        // + 3 IPIs (150) + their latency (300) + the exits (600).
        assertEquals(600 + 400 + 150 + 300 + 600 + 400 + 33 + 150 + 300 + 600, r[0], "ns in flush_tlb_multi");
        assertEquals(1, r[1], "one hypercall, whatever the number of targets");
        assertEquals(6, r[2], "each running target is kicked out of the guest twice: the flush, then the sync");
        assertEquals(4 + 4, r[3], "the host flushed the initiator and the three targets, twice");
        assertEquals(0, r[4]);
        assertEquals(0, r[5], "no guest IPI");
        assertEquals(0, r[6], "no flush handler ran in the guest");
        assertEquals(0, r[7]);
    }

    @Test
    void targetsNotRunningAreFlushedAtTheirNextEntryAndCostTheInitiatorNothing() {
        long[] r = unmapOnePage(1, "hypercall");
        // Four vCPUs on one pCPU: while vCPU 0 runs, the others wait. Hypercall + the local page
        // + the caller's full flush of the sync (33).
        assertEquals(600 + 400 + 33, r[0], "ns in flush_tlb_multi");
        assertEquals(1, r[1]);
        assertEquals(0, r[2], "no target to kick");
        assertEquals(3, r[4], "three KVM_REQ_TLB_FLUSH_GUEST requests left for the next entry");
        assertEquals(1 + 1 + 3 + 3, r[3],
                "the local flush; the sync's of the caller and of the three descheduled vCPUs; each target's at its entry");
        assertEquals(0, r[7]);
    }

    @Test
    void thePublicGuestSendsOneIpiHypercallAndTheTargetsFlushThemselves() {
        long[] r = unmapOnePage(4, "ipi");
        assertEquals(1 + 1 + 3, r[1], "one KVM_HC_SEND_IPI for the three targets, then each CPU's PVM_HC_TLB_INVLPG");
        assertEquals(3, r[5]);
        assertEquals(3, r[6], "each target ran flush_tlb_func");
        assertEquals(4, r[3], "the first sync of the cleared entry flushes the four vCPUs");
        assertEquals(0, r[7]);
    }
}
