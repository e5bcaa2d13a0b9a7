package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;

class SwitchMmTest {
    @Test
    void chooseNewAsidReusesAMatchingSlotAndRecyclesRoundRobin() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(2).memoryMiB(16).build())) {
            KernelCpu cpu = g.cpu(0);
            Mm[] mms = new Mm[7];
            for (int i = 0; i < mms.length; i++) {
                mms[i] = g.newMm();
            }
            for (int i = 0; i < 5; i++) {
                SwitchMm.switchMmIrqsOff(cpu, mms[i]);
                assertEquals(i + 1, cpu.tlbState.loadedMmAsid, "slot 0 holds init_mm; new mms take 1..5");
                assertTrue(mms[i].cpumask().test(0));
                if (i > 0) {
                    assertFalse(mms[i - 1].cpumask().test(0), "leaving an mm clears its mask bit");
                }
            }
            SwitchMm.switchMmIrqsOff(cpu, mms[5]);
            assertEquals(0, cpu.tlbState.loadedMmAsid, "the sixth new context recycles slot 0");
            long flushes = g.vmstat().get(Counter.SWITCH_MM_FLUSHES);
            assertEquals(6, flushes);
            SwitchMm.switchMmIrqsOff(cpu, mms[2]);
            assertEquals(3, cpu.tlbState.loadedMmAsid);
            assertEquals(flushes, g.vmstat().get(Counter.SWITCH_MM_FLUSHES), "an up-to-date slot needs no flush");
            mms[2].incTlbGen();
            SwitchMm.switchMmIrqsOff(cpu, mms[1]);
            SwitchMm.switchMmIrqsOff(cpu, mms[2]);
            assertEquals(flushes + 1, g.vmstat().get(Counter.SWITCH_MM_FLUSHES), "a slot behind tlb_gen is flushed");
        }
    }

    @Test
    void lazyModeKeepsTheMmAndCatchesUpOnReturn() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(2).memoryMiB(16).build())) {
            KernelCpu cpu = g.cpu(1);
            Mm mm = g.newMm();
            SwitchMm.switchMmIrqsOff(cpu, mm);
            SwitchMm.enterLazyTlb(cpu);
            assertTrue(cpu.tlbState.isLazy);
            assertTrue(mm.cpumask().test(1), "a lazy CPU stays in mm_cpumask");
            long before = g.vmstat().get(Counter.SWITCH_MM_FLUSHES);
            SwitchMm.switchMmIrqsOff(cpu, mm);
            assertFalse(cpu.tlbState.isLazy);
            assertEquals(before, g.vmstat().get(Counter.SWITCH_MM_FLUSHES), "nothing happened meanwhile: no flush");
            SwitchMm.enterLazyTlb(cpu);
            mm.incTlbGen();
            SwitchMm.switchMmIrqsOff(cpu, mm);
            assertEquals(before + 1, g.vmstat().get(Counter.SWITCH_MM_FLUSHES));
            assertEquals(mm.tlbGen(), cpu.tlbState.tlbGen[cpu.tlbState.loadedMmAsid]);
        }
    }
}
