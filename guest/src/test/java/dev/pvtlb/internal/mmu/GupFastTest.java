package dev.pvtlb.internal.mmu;

import dev.pvtlb.internal.kernel.GupFast;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.KernelCpu;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class GupFastTest {
    private static final long VA = Mm.MMAP_BASE + 0x5000;

    @Test
    void walksOneLevelPerStepWithIrqsOffAndFindsTheLeaf() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(2).memoryMiB(16).build())) {
            Mm mm = g.newMm();
            int data = g.allocator().alloc(FrameState.DATA);
            g.pageTables().set(mm.pgd(), VA, Pte.make(data, Pte.PRESENT | Pte.USER));
            KernelCpu cpu = g.cpu(1);
            long[] found = {-1};
            cpu.call(new GupFast(mm, VA, pte -> found[0] = pte));
            g.runSteps(3); // cpu0 idles; cpu1 enters gup_fast and reads the pgd entry
            assertTrue(cpu.irqsDisabled());
            g.run(Long.MAX_VALUE);
            assertFalse(cpu.irqsDisabled());
            assertEquals(data, Pte.pfnOf(found[0]));
        }
    }

    @Test
    void aTableFreedAndReusedUnderTheWalkIsReported() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(1).memoryMiB(16).build())) {
            Mm mm = g.newMm();
            g.pageTables().set(mm.pgd(), VA, Pte.make(g.allocator().alloc(FrameState.DATA), Pte.PRESENT | Pte.USER));
            int pteTable = g.pageTables().tableAt(mm.pgd(), VA, Level.PTE);
            int pmdTable = g.pageTables().tableAt(mm.pgd(), VA, Level.PMD);
            List<String> reports = new ArrayList<>();
            long[] found = {-1};
            KernelCpu cpu = g.cpu(0);
            cpu.call(new GupFast(mm, VA, pte -> found[0] = pte).observer((w, c, pfn, level, now, exp, gen) ->
                    reports.add(w + " cpu" + c + " frame " + (pfn == pteTable) + " " + level + " now " + now)));
            g.runSteps(4); // entry, then the pgd, pud and pmd entries: the next read is of the PTE table
            // Another CPU's munmap without an effective shootdown: unhook and free the PTE
            // table, and the allocator hands it out again for data.
            g.mem().writeWord(pmdTable, Level.PMD.index(VA), 0);
            g.allocator().free(pteTable);
            assertEquals(pteTable, g.allocator().alloc(FrameState.DATA));
            g.run(Long.MAX_VALUE);
            assertEquals(0, found[0]);
            assertEquals(List.of("GUP_FAST cpu0 frame true PTE now DATA"), reports);
        }
    }

    @Test
    void aSpeculativeWalkFillsTheTlbOfTheLoadedMm() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(1).memoryMiB(16).build())) {
            KernelCpu cpu = g.cpu(0);
            Mm init = g.initMm();
            int data = g.allocator().alloc(FrameState.DATA);
            g.pageTables().set(init.pgd(), VA, Pte.make(data, Pte.PRESENT | Pte.USER));
            assertEquals(data, Pte.pfnOf(cpu.localTlb().speculativeWalk(VA)));
            assertTrue(cpu.localTlb().tlb().lookup(cpu.localTlb().currentPcid(), VA >>> 12) >= 0);
            assertEquals(0, cpu.localTlb().speculativeWalk(VA + 0x1000));
        }
    }
}
