package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.mm.ContendedLine;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.smp.Topology;
import org.junit.jupiter.api.Test;

/**
 * host.topology: a cache line moving between two vCPUs costs what it costs between the pCPUs they
 * run on (x86-skylake: line.local.ns 5, line.same_socket.ns 20, line.cross_socket.ns 120).
 */
class HostTopologyTest {
    private static Kernel kvm(Topology host) {
        GuestConfig.Builder b = GuestConfig.builder().cpus(4).backend("kvm");
        if (host != null) {
            b.hostTopology(host);
        }
        return KernelBoot.boot(b.build());
    }

    /** vCPU 0 writes the line, then vCPU 1, then vCPU 2: what the second and third writes cost. */
    private static long[] twoTransfers(Kernel k) {
        ContendedLine line = new ContendedLine(dev.pvtlb.stats.CostPart.LINES_PER_CPU);
        KernelCpu[] c = k.cpus();
        c[0].lines.write(line, 0); // first touch: nobody else holds it
        return new long[] {c[1].lines.write(line, 1_000), c[2].lines.write(line, 2_000)};
    }

    /** A flat 4-vCPU guest on a host of 2 sockets x 2 cores: vCPUs 0 and 1 on socket 0, vCPU 2 on socket 1. */
    @Test
    void aLineBetweenVcpusOnTheHostsTwoSocketsCrossesBetweenThem() {
        long[] cost = twoTransfers(kvm(new Topology(2, 2, 1)));
        assertEquals(20, cost[0]);
        assertEquals(120, cost[1]);
    }

    /** Without a host topology every vCPU of the flat guest is on its one socket. */
    @Test
    void withoutOneTheGuestsOwnPlacesPriceTheLine() {
        long[] cost = twoTransfers(kvm(null));
        assertEquals(20, cost[0]);
        assertEquals(20, cost[1]);
    }

    /**
     * On 1 socket x 2 cores x 2 threads, pCPUs 0 and 2 are SMT siblings of core 0 and pCPU 1 is core 1:
     * a line from vCPU 1 to vCPU 2 crosses cores, one from vCPU 0 to vCPU 2 stays in their core.
     */
    @Test
    void siblingsShareTheirCoresCaches() {
        Kernel k = kvm(new Topology(1, 2, 2));
        assertEquals(20, twoTransfers(k)[1]);
        ContendedLine line = new ContendedLine(dev.pvtlb.stats.CostPart.LINES_PER_CPU);
        k.cpus()[0].lines.write(line, 0);
        assertEquals(5, k.cpus()[2].lines.write(line, 1_000));
    }

    /** A vCPU the host moves to another pCPU (host.balance=idle) prices lines from there. */
    @Test
    void aMovedVcpuPricesLinesFromItsNewPcpu() {
        Kernel k = kvm(new Topology(2, 2, 1));
        HostModel host = (HostModel) k.vcpuHost();
        HostVcpu v2 = host.vcpusOf(0)[2];
        IdleBalance.migrate(v2, host.vcpusOf(0)[0].pcpu); // to socket 0, core 0 (vCPU 1 writes from core 1)
        assertEquals(20, twoTransfers(k)[1]);
    }

    @Test
    void aHostTopologyMustHoldTheHostsPcpusAndNeedsAHost() {
        ModelException count = assertThrows(ModelException.class,
                () -> GuestConfig.builder().cpus(4).backend("kvm").hostTopology(new Topology(2, 4, 1)).build());
        assertEquals("host.topology 2x4x1 has 8 pCPUs; the host has 4 (pcpus, or one per vCPU)", count.getMessage());
        assertEquals(8, GuestConfig.builder().cpus(4).backend("kvm").pcpus(8).hostTopology(new Topology(2, 4, 1)).build()
                .hostTopology().cpus());
        ModelException bare = assertThrows(ModelException.class,
                () -> GuestConfig.builder().cpus(4).hostTopology(new Topology(2, 2, 1)).build());
        assertEquals("host.topology applies to a virtualized backend; backend native runs on bare metal, whose CPUs are "
                + "the guest's topology", bare.getMessage());
        ModelException syntax = assertThrows(ModelException.class, () -> Scenario.of("ebizzy").set("host.topology", "2x16"));
        assertEquals("host.topology must be SOCKETSxCORESxTHREADS (e.g. 1x4x2), got '2x16'", syntax.getMessage());
    }
}
