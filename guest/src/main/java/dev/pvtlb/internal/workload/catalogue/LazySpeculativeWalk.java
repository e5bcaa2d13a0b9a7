package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.config.GuestConfig;

/**
 * Catalogue 2: CPU 1 ran the mm and went idle, lazy, its CR3 still on the mm's tables; CPU 0 unmaps
 * and frees the tables. An idle CPU is in an RCU extended quiescent state, so RCU table freeing
 * does not wait for it; only an IPI that moves it off the mm does. With {@code lazy=skip-nofree} no
 * IPI comes and its speculative walks (from its paging-structure caches) read freed tables (Rik van
 * Riel, "x86,tlb,mm: make lazy TLB mode even lazier", LKML June 2018). {@code skip} (IPI lazy CPUs
 * when tables are freed), {@code ipi} and {@code off} are safe.
 */
public final class LazySpeculativeWalk extends Catalogue {
    @Override
    public String name() {
        return "lazy-speculative-walk";
    }

    @Override
    public String description() {
        return "catalogue: tables freed while an idle lazy CPU can still walk them speculatively";
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
        return readerGoesLazyWhileUnmapped(g);
    }
}
