package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;

/** The APIC's destination modes, on the concurrent-flush thread's machine: 2 sockets x 14 cores x 2 threads. */
class BareMetalIpiTest {
    private static final Topology SKYLAKE_56 = new Topology(2, 14, 2);

    @Test
    void apicIdsPutTheThreadInTheLowBitThenTheCoreThenTheSocket() {
        assertEquals(0, SKYLAKE_56.apicId(0));
        assertEquals(2, SKYLAKE_56.apicId(1)); // core 1, thread 0
        assertEquals(26, SKYLAKE_56.apicId(13)); // last core of socket 0
        assertEquals(32, SKYLAKE_56.apicId(14)); // socket 1: 14 cores need 4 bits, a thread 1
        assertEquals(1, SKYLAKE_56.apicId(28)); // core 0, thread 1
        assertEquals(59, SKYLAKE_56.apicId(55)); // socket 1, core 13, thread 1
    }

    private static long sendToAllOthers(String mode) {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().topology(SKYLAKE_56).memoryMiB(16).knob("x86.x2apic", mode).build())) {
            KernelCpu[] all = g.cpus();
            KernelCpu[] targets = new KernelCpu[all.length - 1];
            System.arraycopy(all, 1, targets, 0, targets.length);
            long cost = new BareMetalIpi().send(all[0], targets, targets.length, dev.pvtlb.smp.IpiKind.CALL_FUNCTION_MASK);
            assertEquals(55, g.vmstat().get(Counter.IPIS_SENT));
            return cost;
        }
    }

    @Test
    void physicalModeWritesTheIcrOncePerTargetClusterModeOncePerCluster() {
        assertEquals(55 * 50, sendToAllOthers("physical"));
        // APIC IDs 0..27 and 32..59: clusters 0, 1 (socket 0) and 2, 3 (socket 1).
        assertEquals(4 * 50, sendToAllOthers("cluster"));
    }
}
