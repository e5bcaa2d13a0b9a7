package dev.pvtlb.internal.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.internal.sim.Chooser;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.scenario.Script;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;
import org.junit.jupiter.api.Test;

/**
 * The explorer ends the host slice running at boot at a step of its vCPU (HostModel's PREEMPT by
 * steps); a run does not. One vCPU shares its pCPU with a vCPU of another VM and computes for
 * 100 us in 10 us steps; the host slice is the profile's 3 ms.
 */
class StepPreemptionTest {
    /** Answers 5 to the step choice (65 alternatives) and 0 (the shortest slice) to every other. */
    private static Chooser answering(boolean exploring) {
        return new Chooser() {
            @Override
            public int choose(ChoicePoint point, int options) {
                return point == ChoicePoint.PREEMPT && options == HostModel.STEP_POINTS + 1 ? 5 : 0;
            }

            @Override
            public boolean exploring() {
                return exploring;
            }
        };
    }

    private static Kernel run(boolean exploring) {
        GuestConfig cfg = GuestConfig.builder().cpus(1).seed(1).backend("kvm").pcpus(1).vms(2).build();
        Kernel g = KernelBoot.boot(cfg, answering(exploring));
        g.spawn("spin", g.newMm(), 0, new Script(new Spin(100_000, 10_000)));
        g.run(Long.MAX_VALUE);
        return g;
    }

    @Test
    void exploringTheSliceEndsAfterTheChosenStepAndTheVcpuWaitsOutTheOtherOnesSlice() {
        Kernel g = run(true);
        assertEquals(1, g.vmstat().get(Counter.VCPU_PREEMPTIONS), "preempted once, after its 5th step");
        // Parked from the end of its 5th step until the other VM's vCPU ran its shortest slice
        // (3 ms / 2) and the host switched to this one and entered it again (2500 + 600 ns).
        assertEquals(1_500_000 + 3100, g.cpuTime().get(0, TimeCategory.STOLEN));
    }

    @Test
    void aRunMakesNoStepChoiceAndTheVcpuComputesUndisturbed() {
        Kernel g = run(false);
        assertEquals(0, g.vmstat().get(Counter.VCPU_PREEMPTIONS));
        assertEquals(0, g.cpuTime().get(0, TimeCategory.STOLEN));
    }
}
