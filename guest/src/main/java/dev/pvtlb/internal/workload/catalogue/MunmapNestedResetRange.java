package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.workload.Flag;
import dev.pvtlb.internal.workload.Sequence;
import java.util.List;

/**
 * Catalogue 8, the nested-flush reset of 2019 (fixed by 7a30df49f63a, "mm: mmu_gather: remove
 * __tlb_reset_range() for force flush", Fixes: dd2283f2605e "mm: mmap: zap pages with read
 * mmap_sem in munmap"): CPU 2's MADV_DONTNEED and CPU 0's munmap of the same range overlap, so
 * each sees mm_tlb_flush_nested(). With {@code nestedFlush=reset-range} the munmap, which freed
 * the range's page table, resets its gather (freed_tables too) before its forced flush; the flush
 * then skips CPU 1, idle in lazy TLB mode on the mm, whose paging-structure caches still point at
 * the table that RCU frees without waiting for an idle CPU: its speculative walk reads the freed
 * table. {@code nestedFlush=flush} (the fix: freed_tables kept) IPIs the lazy CPU too.
 */
public final class MunmapNestedResetRange extends Catalogue {
    @Override
    public String name() {
        return "munmap-nested-reset-range";
    }

    @Override
    public String description() {
        return "catalogue: a munmap nested with a MADV_DONTNEED flushes as if no table was freed (7a30df49f63a)";
    }

    @Override
    int roles() {
        return 3;
    }

    @Override
    void configureRace(GuestConfig.Builder b) {
        b.speculativeWalks(true);
    }

    @Override
    Mm race(Kernel g, int cpus) {
        Mm mm = g.newMm();
        long r = map(mm, 1, 8);
        g.spawnPinned("reader", mm, 1, new Sequence(List.of(sleep(300), touch(r, 8, 64, 0.0), sleep(14_000))));
        Flag populated = new Flag();
        // The munmap's phase against the MADV_DONTNEED is chosen among 32 offsets of 100 ns.
        g.spawnPinned("unmapper", mm, 0, new Sequence(List.of(populate(r, 8), populated.raise(), sleep(2_000),
                delay(0, 3_100, 32), munmap(mm, r, 8), spin(8_000))));
        g.spawnPinned("madviser", mm, 2, new Sequence(List.of(populated.await(), sleep(3_500), madvise(mm, r, 8),
                spin(9_000))));
        return mm;
    }
}
