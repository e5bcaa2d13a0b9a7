package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;

/**
 * What a halted vCPU looks like to the guest through steal time. vCPU 1 touches 4 pages and sleeps
 * (HLT; no halt polling, so its thread is scheduled out at once); vCPU 0 computes 1 ms and unmaps
 * the pages. With lazy=ipi the idle vCPU 1 is a flush target.
 */
class KvmStealTimeTest {
    private static Scripted haltedTarget(String pvTlbFlush, String preemptedOnHalt, String schedYieldSkipsIdle) {
        return haltedTarget(pvTlbFlush, preemptedOnHalt, schedYieldSkipsIdle, false);
    }

    /**
     * With {@code busyTarget}, a third vCPU on a pCPU of its own touches the pages too and keeps
     * computing: the flush is one call with two targets, which goes out by the mask path,
     * kvm_smp_send_call_func_ipi() (a call with one target takes the single-target path, which has
     * no yield).
     */
    private static Scripted haltedTarget(String pvTlbFlush, String preemptedOnHalt, String schedYieldSkipsIdle, boolean busyTarget) {
        int cpus = busyTarget ? 3 : 2;
        GuestConfig cfg = GuestConfig.builder().cpus(cpus).seed(17).backend("kvm").pcpus(cpus).knob("lazy", "ipi")
                .knob("kvm.haltPoll", "false").knob("kvm.pvTlbFlush", pvTlbFlush).knob("kvm.preemptedOnHalt", preemptedOnHalt)
                .knob("kvm.schedYieldSkipsIdle", schedYieldSkipsIdle).build();
        Scripted s = new Scripted(cfg);
        long b = s.map(1, 4);
        s.spawn(0, new Spin(1_000_000, 10_000), s.munmap(b, 4));
        s.spawn(1, Scripted.populate(b, 4), Scripted.sleep(10_000_000));
        if (busyTarget) {
            s.spawn(2, Scripted.touch(b, 4, 4), new Spin(5_000_000, 10_000));
        }
        s.run();
        return s;
    }

    /** Before 2022 a halted vCPU looked preempted: the PV flush left it a flush request instead of an IPI. */
    @Test
    void aHaltedVcpuThatLooksPreemptedGetsAFlushRequestInsteadOfAnIpi() {
        Scripted before = haltedTarget("true", "true", "true");
        assertEquals(1, before.count(Counter.DEFERRED_FLUSHES));
        assertEquals(0, before.count(Counter.IPIS_SENT));
        Scripted now = haltedTarget("true", "false", "true");
        assertEquals(0, now.count(Counter.DEFERRED_FLUSHES));
        assertEquals(1, now.count(Counter.IPIS_SENT), "the IPI wakes it");
        assertEquals(1, now.count(Counter.HYPERCALLS), "KVM_HC_SEND_IPI");
    }

    /**
     * Plain flush IPIs (kvm.pvTlbFlush=false): kvm_smp_send_call_func_ipi() issues KVM_HC_SCHED_YIELD
     * for the idle, halted target only when it looks preempted and idle targets are not skipped
     * (before 9ee83635d872); the host cannot yield to a vCPU that is not runnable. The busy target
     * is running, not preempted: no yield for it either way.
     */
    @Test
    void beforeTheBusyCheckTheGuestYieldsToAnIdleTargetInVain() {
        assertEquals(1, haltedTarget("false", "false", "true", true).count(Counter.HYPERCALLS), "not preempted: KVM_HC_SEND_IPI only");
        assertEquals(1, haltedTarget("false", "true", "true", true).count(Counter.HYPERCALLS), "preempted but idle: skipped");
        Scripted old = haltedTarget("false", "true", "false", true);
        assertEquals(2, old.count(Counter.HYPERCALLS), "KVM_HC_SEND_IPI and KVM_HC_SCHED_YIELD");
        assertEquals(0, old.count(Counter.DIRECTED_YIELDS));
    }

    /** The same idle target alone: a call with one target goes out by the single-target path, never with a yield. */
    @Test
    void aCallToTheIdleTargetAloneNeverYields() {
        Scripted old = haltedTarget("false", "true", "false");
        assertEquals(1, old.count(Counter.HYPERCALLS), "KVM_HC_SEND_IPI only");
        assertEquals(0, old.count(Counter.DIRECTED_YIELDS));
    }
}
