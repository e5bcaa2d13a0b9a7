package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * kvm_vcpu_eligible_for_directed_yield() and the end of kvm_vcpu_on_spin() (virt/kvm/kvm_main.c):
 * a candidate that is itself inside a spin loop is taken every second time it is considered.
 */
class SpinLoopEligibilityTest {
    private static List<Boolean> consider(HostVcpu v, int times) {
        List<Boolean> seen = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            seen.add(KvmSpin.eligibleForDirectedYield(v));
        }
        return seen;
    }

    @Test
    void aVcpuOutsideASpinLoopIsAlwaysEligible() {
        HostVcpu v = new HostVcpu(null, 1, 0, new Pcpu(0, null));
        assertEquals(List.of(true, true, true), consider(v, 3));
        assertEquals(false, v.dyEligible, "dy_eligible only toggles inside a spin loop");
    }

    @Test
    void aVcpuInsideASpinLoopIsEligibleEverySecondTime() {
        HostVcpu v = new HostVcpu(null, 1, 0, new Pcpu(0, null));
        v.inSpinLoop = true; // scheduled out by its own directed yield
        assertEquals(List.of(false, true, false, true), consider(v, 4));
        KvmSpin.leaveSpinLoop(v); // it runs again: kvm_vcpu_on_spin() returns
        assertEquals(false, v.inSpinLoop);
        assertEquals(false, v.dyEligible);
        assertEquals(List.of(true, true), consider(v, 2));
    }
}
