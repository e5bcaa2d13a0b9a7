package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.TimeCategory;
import org.junit.jupiter.api.Test;

/**
 * Under a host topology with SMT a vCPU shares its physical core with whatever runs on the sibling
 * pCPU, whichever VM it belongs to (SmtSharing; x86-skylake: smt.share.factor 1.54). On 1 socket x
 * 1 core x 2 threads, pCPUs 0 and 1 are the two threads of one core; vCPU i of VM m starts on pCPU
 * (i + m) mod 2.
 */
class HostSmtTest {
    private static final Topology ONE_CORE = new Topology(1, 1, 2);
    private static final Topology TWO_CORES = new Topology(1, 2, 1);

    /**
     * vCPU 0 computes 1 ms; vCPU 1 computes {@code otherNs} (0: it has nothing to do and halts).
     * Returns their user time.
     */
    private static long[] computing(GuestConfig.Builder b, Topology host, long otherNs) {
        Scripted s = new Scripted(b.seed(3).backend("kvm").pcpus(2).hostTopology(host).build());
        s.spawn(0, new Spin(1_000_000));
        if (otherNs > 0) {
            s.spawn(1, new Spin(otherNs));
        }
        s.run();
        return new long[] {s.guest.cpuTime().get(0, TimeCategory.USER), s.guest.cpuTime().get(1, TimeCategory.USER)};
    }

    @Test
    void twoVcpusOnSiblingPcpusSlowEachOtherWhileBothCompute() {
        long[] alone = computing(GuestConfig.builder().cpus(2), ONE_CORE, 0);
        assertEquals(1_000_000, alone[0], "the sibling pCPU's vCPU is halted: the core is vCPU 0's");
        long[] both = computing(GuestConfig.builder().cpus(2), ONE_CORE, 400_000);
        // vCPU 1's 400 us take 616 us at 1.54; vCPU 0 runs at that pace meanwhile (400 us of its
        // work) and alone after (600 us), the steps' scaled ends rounded.
        assertEquals(616_000, both[1]);
        assertEquals(1_216_111, both[0]);
        long[] twoCores = computing(GuestConfig.builder().cpus(2), TWO_CORES, 400_000);
        assertEquals(1_000_000, twoCores[0], "a core each: no sharing");
        assertEquals(400_000, twoCores[1]);
    }

    @Test
    void anotherVmsVcpuOnTheSiblingPcpuSlowsTheGuestsVcpu() {
        // VM 1's vCPU 0 is a CPU-bound thread on pCPU 1 (its vCPU 1 idles: others=cpu-bound:1), so
        // vCPU 0 of the guest on pCPU 0 computes its 1 ms at 1.54 throughout. Before the host's
        // cores were shared, only the guest's own virtual siblings slowed it, and it took 1 ms.
        long[] otherVm = computing(GuestConfig.builder().cpus(2).vms(2).otherBusyVcpus(1), ONE_CORE, 0);
        assertEquals(1_540_000, otherVm[0]);
        long[] otherVmTwoCores = computing(GuestConfig.builder().cpus(2).vms(2).otherBusyVcpus(1), TWO_CORES, 0);
        assertEquals(1_000_000, otherVmTwoCores[0]);
    }
}
