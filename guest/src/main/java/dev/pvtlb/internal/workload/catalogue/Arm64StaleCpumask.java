package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.workload.Sequence;
import java.util.ArrayList;
import java.util.List;

/**
 * Catalogue 5: CPU 1 uses a region that CPU 0 zaps. With {@code arm64.flush=local} the flush
 * reaches only the CPUs of mm_cpumask; with {@code arm64.mmCpumask=stale} switch_mm no longer
 * adds CPUs to the mask, so CPU 1 is never flushed. A tracked mask, or broadcast TLBI, is safe.
 */
public final class Arm64StaleCpumask extends Catalogue {
    @Override
    public String name() {
        return "arm64-stale-cpumask";
    }

    @Override
    public String description() {
        return "catalogue: local TLBI by IPI to mm_cpumask when the mask is not maintained";
    }

    @Override
    int roles() {
        return 2;
    }

    @Override
    Mm race(Kernel g, int cpus) {
        Mm mm = g.newMm();
        long r = map(mm, 1, 4);
        List<Op> zapper = new ArrayList<>(List.of(populate(r, 4), spin(1_000)));
        for (int k = 0; k < 10; k++) {
            zapper.add(madvise(mm, r, 4));
            zapper.add(spin(2_000));
        }
        List<Op> user = new ArrayList<>();
        for (int k = 0; k < 20; k++) {
            user.add(touch(r, 4, 8, 0.5));
            user.add(spin(1_000));
        }
        g.spawnPinned("zapper", mm, 0, new Sequence(zapper));
        g.spawnPinned("user", mm, 1, new Sequence(user));
        return mm;
    }
}
