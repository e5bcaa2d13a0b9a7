package dev.pvtlb.internal.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.pvtlb.internal.mem.FrameAllocator;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mem.PhysMem;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class HardwareWalkerTest {
    private static final long VA = 0x7f00_0020_3000L;

    @Test
    void aFullWalkReadsFourLevelsAndTheCachedOneReadsOnlyThePte() {
        try (PhysMem mem = new PhysMem(4L << 20)) {
            FrameAllocator a = new FrameAllocator(mem);
            PageTables pt = new PageTables(a);
            int pgd = pt.allocPgd();
            int data = a.alloc(FrameState.DATA);
            pt.set(pgd, VA, Pte.make(data, Pte.PRESENT | Pte.RW | Pte.USER));
            HardwareWalker w = new HardwareWalker(mem, a.frames(), new PagingStructureCache(2, 4, 32), 0);
            long pte = w.walk(pgd, 1, VA, true, Walker.HARDWARE);
            assertEquals(data, Pte.pfnOf(pte));
            assertEquals(Pte.ACCESSED | Pte.DIRTY, pte & (Pte.ACCESSED | Pte.DIRTY), "the walk sets A and D");
            assertEquals(pte, pt.get(pgd, VA), "and writes them to memory");
            assertEquals(4, w.levelsRead());
            w.walk(pgd, 1, VA + 4096, false, Walker.HARDWARE);
            assertEquals(1, w.levelsRead(), "the PDE cache skips three levels");
            w.walk(pgd, 2, VA, false, Walker.HARDWARE);
            assertEquals(4, w.levelsRead(), "another PCID does not hit");
        }
    }

    @Test
    void aCachedPdeToAFreedTableIsReportedAsWalkAfterFree() {
        try (PhysMem mem = new PhysMem(4L << 20)) {
            FrameAllocator a = new FrameAllocator(mem);
            PageTables pt = new PageTables(a);
            int pgd = pt.allocPgd();
            pt.set(pgd, VA, Pte.make(a.alloc(FrameState.DATA), Pte.PRESENT | Pte.USER));
            HardwareWalker w = new HardwareWalker(mem, a.frames(), new PagingStructureCache(2, 4, 32), 3);
            List<String> reports = new ArrayList<>();
            w.observer((walker, cpu, pfn, level, now, expected, gen) ->
                    reports.add(walker + " cpu" + cpu + " " + level + " " + now + " gen " + expected + "->" + gen));
            w.walk(pgd, 1, VA, false, Walker.HARDWARE);
            int pteTable = pt.tableAt(pgd, VA, Level.PTE);
            // Unhook and free the PTE table without flushing this CPU's paging-structure cache.
            pt.unmap(pgd, VA & ~0x1fffffL, (VA & ~0x1fffffL) + (2 << 20), new UnmapSink() {
                public void page(long v, long old) { }
                public void table(int pfn, Level level, long v) { }
                public boolean spanInUse(long s, long e) { return false; }
            });
            a.free(pteTable);
            int reused = a.alloc(FrameState.DATA);
            assertEquals(pteTable, reused);
            assertEquals(0, w.walk(pgd, 1, VA, false, Walker.HARDWARE));
            assertEquals(List.of("PSC_ASSISTED cpu3 PTE DATA gen 0->1"), reports);
            assertNotEquals(0, reports.size());
        }
    }
}
