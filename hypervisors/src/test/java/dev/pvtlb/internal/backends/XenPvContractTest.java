package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;

class XenPvContractTest extends BackendContract {
    @Override
    String backend() {
        return "xen-pv";
    }

    @Override
    void countersAddUp(Scripted s) {
        hostFlushesAddUp(s);
    }

    /** A backend whose host flushes the vCPUs (Xen PV, PVM): hypercalls, no guest interrupt, no flush left pending. */
    static void hostFlushesAddUp(Scripted s) {
        assertTrue(s.count(Counter.HYPERCALLS) > 0);
        assertEquals(0, s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED), "the guest takes no flush interrupt");
        assertTrue(s.count(Counter.HYPERVISOR_FLUSHES) >= s.count(Counter.DEFERRED_FLUSHES),
                "every deferred flush was done at the vCPU's next entry");
        assertNoneLeftPending(s);
    }

    static void assertNoneLeftPending(Scripted s) {
        for (var c : s.guest.cpus()) {
            assertTrue(c.vcpuRunning() || c.isHalted(), "cpu" + c.id + " left preempted with work done");
        }
    }
}
