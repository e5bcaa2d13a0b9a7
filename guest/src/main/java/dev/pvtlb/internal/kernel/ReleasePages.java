package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.profile.Costs;

/**
 * release_pages() and free_unref_page_list() for the data pages an unmap freed after its flush
 * (tlb_flush_mmu_free() -> free_pages_and_swap_cache(), mm/swap.c, Linux 5.2), with pageLocks=on:
 * the pages come off the LRU under lru_lock, at most {@link Costs#releaseBatch} to a hold, then
 * go to the CPU's free list, which gives {@link Costs#pcpBatch} back under zone->lock each time
 * it reaches pcp->high. The pages themselves were returned to the frame allocator already; this is
 * only the locks and their time.
 */
final class ReleasePages extends InternalPath {
    private int offLru;
    private final int pages;

    ReleasePages(int pages) {
        this.pages = pages;
        this.offLru = pages;
    }

    @Override
    public long step(KernelCpu cpu) {
        Costs c = cpu.kernel().costs();
        PageLists node = cpu.kernel().pageLists(cpu);
        if (offLru > 0) {
            int n = Math.min(offLru, c.releaseBatch);
            offLru -= n;
            cpu.call(new SpinLockedSection("release_pages", node.lru, c.lruLockPage.times(n), () -> {}));
            return 0;
        }
        if (pc == 0) {
            pc = 1;
            cpu.pages.pcp += pages; // free_unref_page_commit(), page after page
        }
        if (cpu.pages.pcp >= c.pcpHigh) {
            cpu.call(new SpinLockedSection("free_pcppages_bulk", node.zone, c.zoneLockPage.times(c.pcpBatch),
                    () -> cpu.pages.pcp -= c.pcpBatch));
            return 0;
        }
        cpu.ret();
        return 0;
    }

    @Override
    public String name() {
        return "release_pages";
    }
}
