package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.cache.CacheHierarchy;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.smp.Topology;
import org.junit.jupiter.api.Test;

/**
 * Under host.topology the data caches are the physical machine's: a host core's L1D and L2 and a
 * socket's LLC, loaded through by whichever VM's vCPU runs there, each VM's guest-physical lines
 * its own (x86-skylake: L1 512 lines, L2 4096).
 */
class HostCachesTest {
    private static final long LINE = 0x1234;

    @Test
    void vmsShareTheHostsCachesButNotTheirLines() {
        Costs c = KernelBoot.boot(GuestConfig.builder().cpus(4).backend("kvm").build()).costs();
        HostCaches host = new HostCaches(new Topology(1, 2, 2), c, 2);
        CacheHierarchy vm0core0 = host.of(0, 0, 0);
        CacheHierarchy vm1core0 = host.of(1, 0, 0);
        CacheHierarchy vm0core1 = host.of(0, 1, 0);
        assertEquals(c.memPs, vm0core0.loadPs(LINE), "first touch: from memory");
        assertEquals(c.accessPs, vm0core0.loadPs(LINE), "then from the core's L1");
        assertEquals(c.memPs, vm1core0.loadPs(LINE), "the same guest-physical line of another VM is another host line");
        assertEquals(c.llcPs, vm0core1.loadPs(LINE), "the other core of the socket finds it in their LLC");
        for (long l = 0; l < 4 * 512; l++) {
            vm1core0.loadPs(0x100000 + l); // the other VM's vCPU runs on core 0 meanwhile
        }
        assertEquals(c.l2Ps, vm0core0.loadPs(LINE), "VM 1 pushed it out of core 0's L1, not yet out of its L2");
    }
}
