package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;

/**
 * What one user load costs through the TLBs and the data caches (x86-skylake: L1 hit 1.3 ns, L2
 * 4.0, LLC 14.7, memory 80; a table read at least walk.level.ns 1.7; an STLB hit after an L1 DTLB
 * miss 2.7 more).
 */
class UserAccessCostTest {
    private static final long FLAGS = Pte.PRESENT | Pte.USER | Pte.ACCESSED | Pte.NX | Pte.RW | Pte.DIRTY;

    private static long map(Kernel g, Mm mm, int pages) {
        long base = mm.getUnmappedArea((long) pages << 12);
        mm.insertVma(base, base + ((long) pages << 12), true, false);
        for (int p = 0; p < pages; p++) {
            g.pageTables().set(mm.pgd(), base + ((long) p << 12), Pte.make(g.allocator().alloc(FrameState.DATA), FLAGS));
        }
        return base;
    }

    @Test
    void aColdLoadReadsFourTablesAndItsLineFromMemoryThenHitsEverywhere() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(1).memoryMiB(16).build())) {
            KernelCpu cpu = g.cpu(0);
            Mm mm = g.newMm();
            long base = map(g, mm, 8);
            SwitchMm.switchMmIrqsOff(cpu, mm);
            assertEquals(5 * 80_000, cpu.localTlb().userAccess(base, false), "PGD, PUD, PMD, PTE and the data line, all from memory");
            assertEquals(1_300, cpu.localTlb().userAccess(base, false), "TLB, L1 DTLB and L1D hits");
            // The next page: the PDE cache starts the walk at the PTE table, whose line (PTEs 0..7)
            // is in the L1; the data line is not.
            assertEquals(1_700 + 80_000, cpu.localTlb().userAccess(base + 4096, false));
        }
    }

    @Test
    void aFullFlushThenNTouchesCostsNRefillsFromTheCaches() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(1).memoryMiB(16).build())) {
            KernelCpu cpu = g.cpu(0);
            Mm mm = g.newMm();
            long base = map(g, mm, 8);
            SwitchMm.switchMmIrqsOff(cpu, mm);
            for (int p = 0; p < 8; p++) {
                cpu.localTlb().userAccess(base + ((long) p << 12), false);
            }
            cpu.localTlb().tlb().flushAll();
            cpu.localTlb().psc().flushAll();
            long misses = g.vmstat().get(Counter.TLB_MISSES);
            long ps = 0;
            for (int p = 0; p < 8; p++) {
                ps += cpu.localTlb().userAccess(base + ((long) p << 12), false);
            }
            assertEquals(8, g.vmstat().get(Counter.TLB_MISSES) - misses, "one refill per page");
            // The first refill walks all four levels, the rest start at the PTE table (PDE cache
            // refilled); every table line and data line is still in the L1D: 1.7 ns per read.
            assertEquals((4 * 1_700 + 1_300) + 7 * (1_700 + 1_300), ps);
        }
    }

    @Test
    void aPageOutOfTheL1DtlbButInTheStlbCostsTheStlbHit() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(1).memoryMiB(16).build())) {
            KernelCpu cpu = g.cpu(0);
            Mm mm = g.newMm();
            long base = map(g, mm, 1024);
            SwitchMm.switchMmIrqsOff(cpu, mm);
            for (int p = 0; p < 1024; p++) {
                cpu.localTlb().userAccess(base + ((long) p << 12), false);
            }
            // 1024 pages: all in the 1536-entry STLB, far beyond the 64-entry L1 DTLB; 1024 data
            // lines overflow the 512-line L1D but fit the L2.
            long misses = g.vmstat().get(Counter.TLB_MISSES);
            assertEquals(4_000 + 2_700, cpu.localTlb().userAccess(base, false));
            assertEquals(misses, g.vmstat().get(Counter.TLB_MISSES));
        }
    }
}
