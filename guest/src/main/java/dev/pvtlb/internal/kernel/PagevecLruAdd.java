package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.profile.Costs;
import java.util.Arrays;

/**
 * A CPU's LRU-add vector goes onto its node's LRU (pageLocks=on): __pagevec_lru_add() in 5.2,
 * folio_batch_move_lru() since 6.2 (mm/swap.c). Every page goes onto the list in one hold of
 * lru_lock, page.lru_lock.page.ns a page and the list's lines ({@link LruList#add}); then the
 * vector drops its references (release_pages(), folios_put()), and the pages an unmap freed
 * while they waited here, whose last reference that was, come off the list again and go to this
 * CPU's free list ({@link ReleasePages}).
 */
final class PagevecLruAdd extends InternalPath {
    private final String name;
    private final LruPage[] pages;

    /** {@code name}: the caller as the kernel names it (__pagevec_lru_add from a full vector, lru_add_drain). */
    PagevecLruAdd(String name, LruPage[] pages) {
        this.name = name;
        this.pages = pages;
    }

    @Override
    public long step(KernelCpu cpu) {
        if (pc == 0) {
            pc = 1;
            Costs c = cpu.kernel().costs();
            PageLists node = cpu.kernel().pageLists(cpu.socket());
            cpu.call(new SpinLockedSection(name, node.lru, c.lruLockPage.times(pages.length), (on, now) -> {
                long cost = 0;
                for (LruPage p : pages) {
                    cost += node.lruList.add(on.lines, p, now);
                }
                return cost;
            }));
            return 0;
        }
        LruPage[] freed = Arrays.stream(pages).filter(p -> p.unmapped).toArray(LruPage[]::new);
        cpu.ret();
        if (freed.length > 0) {
            cpu.call(new ReleasePages(freed, 0));
        }
        return 0;
    }

    @Override
    public String name() {
        return name;
    }
}
