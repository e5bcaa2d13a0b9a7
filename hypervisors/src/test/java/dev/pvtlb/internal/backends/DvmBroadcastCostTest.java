package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.profile.Profile;
import org.junit.jupiter.api.Test;

/**
 * What a broadcast TLBI run costs the initiator and each bystander, from the built-in profile
 * (tlbi.ns 50, tlbi.sync.ns 500, tlbi.dvm.snoop.ns 2, tlbi.bystander.ns 20, tlbi.bystander.sync.ns 20).
 */
class DvmBroadcastCostTest {
    private final DvmBroadcastCost dvm = DvmBroadcastCost.of(Profile.load("x86-skylake"));

    @Test
    void fourPagesInADomainOfFourCpus() {
        // 4 TLBI VAE1IS + DSB ISH: each other CPU handles 4 operations (80) and the Sync (20).
        assertEquals(100, dvm.bystanderNs(4));
        // Fan-out 5 x 3 x 2 = 30 ns overlaps one PE's 80 ns of lookups: 500 + 80 + 20.
        assertEquals(600, dvm.dsbWaitNs(4, 4));
        assertEquals(4 * 50 + 600, dvm.initiatorNs(4, 4));
    }

    @Test
    void theDsbWaitGrowsWithTheDomain() {
        // ThunderX2, 2 sockets x 32 cores x 4 threads: the node sends 5 x 255 SnpDVMOps of 2 ns.
        assertEquals(500 + 5 * 255 * 2 + 20, dvm.dsbWaitNs(4, 256));
        assertEquals(4 * 50 + 3070, dvm.initiatorNs(4, 256));
        assertEquals(500 + 5 * 63 * 2 + 20, dvm.dsbWaitNs(4, 64));
        // What a bystander pays does not depend on how many others there are.
        assertEquals(100, dvm.bystanderNs(4));
    }

    @Test
    void anAsidFlushIsOneOperation() {
        // flush_tlb_mm(): TLBI ASIDE1IS + DSB ISH.
        assertEquals(40, dvm.bystanderNs(1));
        assertEquals(50 + 500 + Math.max(2 * 3 * 2, 20) + 20, dvm.initiatorNs(1, 4));
    }

    @Test
    void aDomainOfOneCpuWaitsOnlyForTheSyncRoundTrip() {
        assertEquals(500, dvm.dsbWaitNs(4, 1));
        assertEquals(700, dvm.initiatorNs(4, 1));
    }
}
