package dev.pvtlb.smp;

import dev.pvtlb.internal.kernel.SmpCallFunctionMany;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.stats.TimeCategory;
import org.junit.jupiter.api.Test;

/** A step's cost counts in the category of the work it did, not of the state it left behind. */
class CpuTimeAccountingTest {
    @Test
    void theLocalCallOfSmpCallFunctionManyIsKernelTimeNotIpiWait() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(2).memoryMiB(16).build())) {
            CpuMask self = new CpuMask(2);
            self.set(0);
            g.cpu(0).call(new SmpCallFunctionMany("test", self, t -> 1234, null, true));
            g.run(Long.MAX_VALUE);
            assertEquals(1234, g.cpuTime().get(0, TimeCategory.KERNEL));
            assertEquals(0, g.cpuTime().get(0, TimeCategory.IPI_WAIT));
        }
    }

    @Test
    void aContextSwitchIsKernelTimeNotIdle() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(2).memoryMiB(16).build())) {
            g.spawn("exits-at-once", g.newMm(), 1, task -> null);
            g.run(Long.MAX_VALUE);
            assertEquals(g.costs().contextSwitchNs, g.cpuTime().get(1, TimeCategory.KERNEL));
        }
    }
}
