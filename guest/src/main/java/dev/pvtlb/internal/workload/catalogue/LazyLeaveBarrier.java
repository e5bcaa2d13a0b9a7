package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.workload.Sequence;
import java.util.List;

/**
 * An ordering demonstration (not a historical bug): the smp_mb() of switch_mm_irqs_off() between
 * the is_lazy = false store and the tlb_gen read when a lazy CPU returns to its mm ("The barrier
 * synchronizes with the tlb_gen increment in the TLB shootdown code", arch/x86/mm/tlb.c) is the
 * store-buffering litmus test. CPU 1 leaves lazy mode while CPU 0's MADV_DONTNEED bumps tlb_gen
 * and asks should_flush_tlb() about it. Under {@code memoryModel=tso} or {@code arm} with
 * {@code switchMmBarrier=none}, CPU 1 reads the old tlb_gen while its is_lazy store is still
 * buffered, CPU 0 still sees it lazy and skips it, and CPU 1 runs on the zapped translations.
 * With the barrier, or under {@code sc}, it is safe.
 */
public final class LazyLeaveBarrier extends Catalogue {
    @Override
    public String name() {
        return "lazy-leave-barrier";
    }

    @Override
    public String description() {
        return "ordering demo: switch_mm's smp_mb between the is_lazy store and the tlb_gen read (store buffering)";
    }

    @Override
    int roles() {
        return 2;
    }

    @Override
    Mm race(Kernel g, int cpus) {
        Mm mm = g.newMm();
        long r = map(mm, 1, 4);
        g.spawnPinned("user", mm, 1, new Sequence(cachesThenLeaves(r)));
        g.spawnPinned("zapper", mm, 0, new Sequence(List.of(populate(r, 4), sleep(2_000), delay(0, 12_700, 128),
                madvise(mm, r, 4), spin(6_000))));
        return mm;
    }
}
