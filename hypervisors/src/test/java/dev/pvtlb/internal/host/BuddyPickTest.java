package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Whether a buddy may run ahead of its queue: EEVDF while it is eligible (not ahead of the
 * average virtual runtime), CFS while it is at most the wake-up granularity (4 ms on 8 or more
 * CPUs) ahead of the leftmost, the current vCPU included.
 */
class BuddyPickTest {
    private static final dev.pvtlb.internal.profile.Costs SKYLAKE =
            new dev.pvtlb.internal.profile.Costs(dev.pvtlb.profile.Profile.load(dev.pvtlb.profile.Profile.DEFAULT));

    /** A running vCPU at 10 ms of virtual runtime and a waiting one at {@code buddyMs}. */
    private static boolean mayRunAhead(CfsWakeup cfs, long buddyMs) {
        Pcpu pc = new Pcpu(0, cfs);
        HostVcpu cur = new HostVcpu(null, 1, 0, pc);
        HostVcpu buddy = new HostVcpu(null, 1, 1, pc);
        pc.vcpus.add(cur);
        pc.vcpus.add(buddy);
        pc.current = cur;
        cur.state = VcpuState.RUNNING;
        cur.vruntime = 10_000_000;
        buddy.state = VcpuState.RUNNABLE;
        buddy.vruntime = buddyMs * 1_000_000;
        return pc.mayRunAhead(buddy);
    }

    @Test
    void cfsLetsABuddyRunUpToTheWakeupGranularityAheadWhereEevdfWantsItEligible() {
        CfsWakeup cfs = new CfsWakeup(64, SKYLAKE);
        assertTrue(mayRunAhead(cfs, 13), "CFS: 3 ms ahead of the leftmost, within 4 ms");
        assertTrue(mayRunAhead(cfs, 14), "CFS: exactly the granularity");
        assertFalse(mayRunAhead(cfs, 15), "CFS: 5 ms ahead");
        assertTrue(mayRunAhead(null, 10), "EEVDF: at the average (10 and 10 ms)");
        assertFalse(mayRunAhead(null, 13), "EEVDF: above the average of 10 and 13 ms");
    }
}
