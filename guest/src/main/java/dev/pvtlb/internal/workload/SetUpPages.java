package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.Pte;

/**
 * Pages a workload's set-up has written before its threads start (a program's first pass, or
 * MAP_POPULATE): each gets a frame, mapped writable and dirty, with no fault simulated and no
 * time spent.
 */
final class SetUpPages {
    private SetUpPages() {}

    /** The set-up's write of one byte of the page at {@code va}. */
    static void write(Kernel guest, Mm mm, long va) {
        int pfn = guest.allocator().alloc(FrameState.DATA);
        guest.pageTables().set(mm.pgd(), va, Pte.make(pfn,
                Pte.PRESENT | Pte.USER | Pte.ACCESSED | Pte.NX | Pte.RW | Pte.DIRTY));
    }

    /** The set-up's write of each of {@code pages} pages from {@code start}, in order. */
    static void write(Kernel guest, Mm mm, long start, int pages) {
        for (int p = 0; p < pages; p++) {
            write(guest, mm, start + (long) p * PhysMem.PAGE_SIZE);
        }
    }
}
