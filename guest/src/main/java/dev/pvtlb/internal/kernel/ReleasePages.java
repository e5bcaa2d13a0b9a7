package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.profile.Costs;
import java.util.Arrays;

/**
 * release_pages() and free_unref_page_list() for data pages whose last reference went (mm/swap.c;
 * folios_put_refs() and free_unref_folios() since 6.9), with pageLocks=on: after an unmap's flush
 * (tlb_flush_mmu_free() -> free_pages_and_swap_cache()), or when an LRU-add vector that held
 * unmapped pages drops them ({@link PagevecLruAdd}). The pages come off the LRU list under their
 * node's lru_lock ({@link LruList#del}), at most {@link Costs#releaseBatch} to a hold and a new
 * hold where the node changes (folio_lruvec_relock_irqsave()); then they go to the CPU's free
 * list, which gives {@link Costs#pcpBatch} back under zone->lock each time it reaches pcp->high.
 * The frames themselves were returned to the frame allocator already; this is the locks, the
 * list and their time.
 */
final class ReleasePages extends InternalPath {
    /** The pages to take off their LRU lists, in the order they are released. */
    private final LruPage[] pages;
    /** The first of {@link #pages} still on its list. */
    private int next;
    /** Pages with no LRU page of their own (none was made at their fault): a hold each batch, no list lines. */
    private int untracked;
    /** Pages that go to the free list. */
    private final int freed;

    ReleasePages(LruPage[] pages, int untracked) {
        this.pages = pages;
        this.untracked = untracked;
        this.freed = pages.length + untracked;
    }

    @Override
    public long step(KernelCpu cpu) {
        Costs c = cpu.kernel().costs();
        if (next < pages.length) {
            PageLists node = cpu.kernel().pageLists(pages[next].node);
            int end = next;
            while (end < pages.length && end - next < c.releaseBatch && pages[end].node == node.node) {
                end++;
            }
            LruPage[] batch = Arrays.copyOfRange(pages, next, end);
            next = end;
            cpu.call(new SpinLockedSection("release_pages", node.lru, c.lruLockPage.times(batch.length), (on, now) -> {
                long cost = 0;
                for (LruPage p : batch) {
                    cost += node.lruList.del(on.lines, p, now);
                }
                return cost;
            }));
            return 0;
        }
        PageLists node = cpu.kernel().pageLists(cpu.socket());
        if (untracked > 0) {
            int n = Math.min(untracked, c.releaseBatch);
            untracked -= n;
            cpu.call(new SpinLockedSection("release_pages", node.lru, c.lruLockPage.times(n), () -> {}));
            return 0;
        }
        if (pc == 0) {
            pc = 1;
            cpu.pages.pcp += freed; // free_unref_page_commit(), page after page
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
