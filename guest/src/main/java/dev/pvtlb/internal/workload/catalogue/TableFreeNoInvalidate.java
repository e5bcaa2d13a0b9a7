package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;

/**
 * Catalogue 10, the missing invalidation of tlb_remove_table_one() (Jann Horn, 2018; fixed by
 * d86564a2f085, "mm/tlb, x86/mm: Support invalidating TLB caches for RCU_TABLE_FREE"): when
 * tlb_remove_table() cannot get a batch page, it frees the table at once after an IPI to every
 * CPU (tlb_remove_table_smp_sync), which keeps IRQs-off walkers out but flushes no
 * paging-structure cache. CPU 1, idle in lazy TLB mode on the mm, still caches the freed table and
 * walks it speculatively. {@code tableBatch=fail-noinvalidate} is the bug; {@code fail-invalidate}
 * (tlb_table_invalidate() first: a flush with freed_tables, which reaches lazy CPUs) and {@code
 * ok} are safe.
 */
public final class TableFreeNoInvalidate extends Catalogue {
    @Override
    public String name() {
        return "table-free-no-invalidate";
    }

    @Override
    public String description() {
        return "catalogue: with no batch page a table is freed after an IPI sync but before any TLB invalidation (d86564a2f085)";
    }

    @Override
    int roles() {
        return 2;
    }

    @Override
    void configureRace(GuestConfig.Builder b) {
        b.speculativeWalks(true);
    }

    @Override
    Mm race(Kernel g, int cpus) {
        // The lazy-speculative-walk program: the lazy reader's cached table is the one freed.
        return readerGoesLazyWhileUnmapped(g);
    }
}
