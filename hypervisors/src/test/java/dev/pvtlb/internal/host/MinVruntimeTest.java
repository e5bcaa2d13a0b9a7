package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * A pCPU's cfs_rq->min_vruntime: the least virtual runtime of its current and waiting vCPUs,
 * never moving back, kept while the queue is empty; a vCPU that moves keeps its place relative to
 * it. Without it a vCPU woken onto an idle pCPU kept a virtual runtime from another queue's scale
 * and, hundreds of milliseconds behind its new neighbours, held the pCPU from them that long.
 */
class MinVruntimeTest {
    private static final long MS = 1_000_000;

    private static HostVcpu vcpu(Pcpu pc, int index, VcpuState state, long vruntimeMs) {
        HostVcpu v = new HostVcpu(null, 1, index, pc);
        v.state = state;
        v.vruntime = vruntimeMs * MS;
        pc.vcpus.add(v);
        return v;
    }

    /** pCPU {@code id} after its last vCPU (index {@code index}, at {@code vruntimeMs}) ran and halted: idle. */
    private static Pcpu idleAfter(int id, int index, long vruntimeMs) {
        Pcpu idle = new Pcpu(id, null);
        HostVcpu last = vcpu(idle, index, VcpuState.RUNNING, vruntimeMs);
        idle.current = last;
        idle.account(0);
        last.state = VcpuState.HALTED;
        idle.current = null;
        idle.updateMinVruntime();
        return idle;
    }

    @Test
    void itFollowsTheLeastQueuedVcpuAndNeverMovesBack() {
        Pcpu pc = new Pcpu(0, null);
        HostVcpu a = vcpu(pc, 0, VcpuState.RUNNING, 10);
        vcpu(pc, 1, VcpuState.RUNNABLE, 12);
        pc.current = a;
        pc.account(0);
        assertEquals(10 * MS, pc.minVruntime(), "min(current 10 ms, leftmost 12 ms)");
        pc.account(3 * MS); // a ran 3 ms more: 13 ms
        assertEquals(12 * MS, pc.minVruntime(), "now the waiting vCPU is the least");
        a.state = VcpuState.HALTED;
        pc.current = null;
        pc.vcpus.get(1).vruntime = 11 * MS; // whatever a queued vCPU says later, the floor stays
        pc.updateMinVruntime();
        assertEquals(12 * MS, pc.minVruntime(), "never placed backwards");
        pc.vcpus.get(1).state = VcpuState.HALTED;
        pc.updateMinVruntime();
        assertEquals(12 * MS, pc.minVruntime(), "an empty queue keeps its min_vruntime");
    }

    @Test
    void aMovedVcpuKeepsItsPlaceRelativeToEachQueuesMinimum() {
        Pcpu from = new Pcpu(0, null);
        HostVcpu cur = vcpu(from, 0, VcpuState.RUNNING, 50);
        HostVcpu v = vcpu(from, 1, VcpuState.RUNNABLE, 53);
        from.current = cur;
        from.account(0);
        Pcpu idle = idleAfter(1, 2, 12);
        IdleBalance.migrate(v, idle);
        assertEquals(15 * MS, v.vruntime, "3 ms ahead of its old queue's 50 ms, so 3 ms ahead of the idle queue's 12 ms");
        assertEquals(idle, v.pcpu);
        assertEquals(50 * MS, from.minVruntime());
    }

    @Test
    void aVcpuWakingOnAnIdlePcpuIsPlacedAgainstItsMinimum() {
        Pcpu idle = idleAfter(0, 0, 400);
        CfsWakeup cfs = new CfsWakeup(64, new dev.pvtlb.internal.profile.Costs(dev.pvtlb.profile.Profile.load("x86-skylake-sp")));
        // place_entity(): at most half of the scaled sched_latency (24 ms) behind: 388 ms, not -456 ms.
        assertEquals(388 * MS, cfs.place(-456 * MS, idle.minVruntime()));
    }
}
