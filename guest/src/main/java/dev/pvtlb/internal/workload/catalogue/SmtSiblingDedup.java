package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.internal.workload.Sequence;
import java.util.ArrayList;
import java.util.List;

/**
 * Catalogue 4: one core of two SMT threads and a second core (CPUs 0-3, siblings 0/2 and 1/3),
 * every CPU busy in one mm, CPU 0 zapping a region the others use. With
 * {@code native.smtSiblingDedup=true} the flush IPIs only one thread of a fully-covered core (Alex Shi,
 * "x86/tlb: just do tlb flush on one of siblings of SMT", LKML 2012): with a TLB per thread the
 * other keeps stale translations; with the core's TLB shared ({@code --set smt.sharedTlb=true}) the
 * kept thread's flush covers it.
 */
public final class SmtSiblingDedup extends Catalogue {
    @Override
    public String name() {
        return "smt-sibling-dedup";
    }

    @Override
    public String description() {
        return "catalogue: the SMT-sibling flush shortcut with per-thread or shared TLBs";
    }

    @Override
    int roles() {
        return 4;
    }

    /** Cores of two SMT threads: the zapper's sibling is a user. */
    @Override
    Topology topology(int cpus) {
        return new Topology(1, cpus / 2, 2);
    }

    /**
     * The zapper on CPU 0, users on its SMT sibling, on CPU 1 and on CPU 1's sibling (Topology
     * numbers a core's second thread one core count up): the shortcut skips the sibling.
     */
    @Override
    int[] roleCpus(int cpus) {
        return new int[] {0, 1, cpus / 2, cpus / 2 + 1};
    }

    @Override
    Mm race(Kernel g, int cpus) {
        Mm mm = g.newMm();
        long r = map(mm, 1, 4);
        List<Op> zapper = new ArrayList<>(List.of(populate(r, 4), spin(1_000)));
        for (int k = 0; k < 20; k++) {
            zapper.add(madvise(mm, r, 4));
            zapper.add(spin(2_000));
        }
        g.spawnPinned("zapper", mm, 0, new Sequence(zapper));
        int[] roles = roleCpus(cpus);
        for (int c = 1; c < 4; c++) {
            List<Op> user = new ArrayList<>();
            for (int k = 0; k < 40; k++) {
                user.add(touch(r, 4, 8, 0.5));
                user.add(spin(1_000));
            }
            g.spawnPinned("user" + c, mm, roles[c], new Sequence(user));
        }
        return mm;
    }
}
