package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.workload.Sequence;
import java.util.ArrayList;
import java.util.List;

/**
 * Catalogue 6, the MADV_DONTNEED flush miss of 2017 (fixed by 99baac21e458, "mm: fix
 * MADV_[FREE|DONTNEED] TLB flush miss problem"): CPUs 0 and 1 zap the same range at about the
 * same time while CPU 2 uses it. The second zap finds the PTEs already cleared, gathers
 * nothing, and with {@code nestedFlush=skip} returns at once, while CPU 2 may still hold the
 * translations that the first zap has not flushed yet: the caller believes the range gone.
 * With {@code nestedFlush=flush} tlb_finish_mmu() sees the nested flush and flushes the range.
 */
public final class MadviseNestedFlush extends Catalogue {
    @Override
    public String name() {
        return "madvise-nested-flush";
    }

    @Override
    public String description() {
        return "catalogue: two concurrent MADV_DONTNEED of one range; the second returns before the flush";
    }

    @Override
    int roles() {
        return 3;
    }

    @Override
    Mm race(Kernel g, int cpus) {
        Mm mm = g.newMm();
        long r = map(mm, 1, 4);
        g.spawnPinned("zap0", mm, 0, new Sequence(zaps(mm, r, true)));
        g.spawnPinned("zap1", mm, 1, new Sequence(zaps(mm, r, false)));
        List<Op> user = new ArrayList<>();
        for (int k = 0; k < 40; k++) {
            user.add(touch(r, 4, 8, 0.5));
            user.add(spin(500));
        }
        g.spawnPinned("user", mm, 2, new Sequence(user));
        return mm;
    }

    private static List<Op> zaps(Mm mm, long r, boolean first) {
        List<Op> ops = new ArrayList<>(List.of(first ? populate(r, 4) : spin(1_000), spin(1_000)));
        for (int k = 0; k < 10; k++) {
            ops.add(madvise(mm, r, 4));
            ops.add(spin(1_500));
        }
        return ops;
    }
}
