package dev.pvtlb.workload.catalogue;

import dev.pvtlb.Guest;
import dev.pvtlb.GuestConfig;
import dev.pvtlb.mm.Mm;
import dev.pvtlb.sched.Op;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.workload.Metric;
import dev.pvtlb.workload.Params;
import dev.pvtlb.workload.Sequence;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Catalogue 1: CPU 0 unmaps a range and frees its page table while CPU 1 runs gup_fast over
 * it. gup_fast walks with IRQs off: a flush IPI cannot land until it is done, so on bare
 * metal even an immediate free is safe. A hypercall flush (xen-pv, hyperv) does not interrupt
 * the walker, and an immediate free then lets it read a freed table (the reason paravirt
 * kernels got RCU table freeing in 2017). RCU or IPI-synchronised freeing is safe everywhere.
 */
public final class GupFastVsFree extends Catalogue {
    @Override
    public String name() {
        return "gup-fast-vs-free";
    }

    @Override
    public String description() {
        return "catalogue: munmap frees a page table while another CPU is inside gup_fast (IRQs off)";
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        super.configure(b, params);
        b.topology(Topology.flat(2));
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Guest g, Params params) {
        Mm mm = g.newMm();
        long r = map(mm, 1, 8);
        List<Op> walker = new ArrayList<>();
        walker.add(sleep(500));
        for (int k = 0; k < 200; k++) {
            walker.add(gupFast(mm, r + (k % 8) * PAGE));
        }
        g.spawn("gup", mm, 1, new Sequence(walker));
        g.spawn("unmapper", mm, 0, new Sequence(List.of(populate(r, 8), sleep(1_000), munmap(mm, r, 8), sleep(2_000))));
        return noMetrics();
    }
}
