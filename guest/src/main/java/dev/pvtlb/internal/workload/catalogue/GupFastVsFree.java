package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.workload.Flag;
import dev.pvtlb.internal.workload.Sequence;
import java.util.List;

/**
 * Catalogue 1: CPU 0 unmaps a range and frees its page table while CPU 1 runs gup_fast over
 * it (a large pin, PTE by PTE). gup_fast walks with IRQs off: a flush IPI cannot land until it
 * is done, so on bare metal even an immediate free is safe. In a VM the walking vCPU can be
 * preempted by the host in the middle of the walk, IRQs off or not; a hypercall flush
 * (xen-pv, hyperv) does not wait for it, and an immediate free then lets it resume inside a
 * freed table (the reason paravirt kernels got RCU table freeing in 2017). RCU or
 * IPI-synchronised freeing is safe everywhere. On a virtualized backend each vCPU shares its
 * pCPU with a vCPU of another VM, at the profile's host slice (3 ms): the explorer's PREEMPT
 * choice ends the walker's slice at a step inside a walk, and the unmapper frees the table while
 * the walker waits a slice for its pCPU.
 */
public final class GupFastVsFree extends Catalogue {
    /** Pages pinned per gup_fast: a large pin (O_DIRECT, RDMA registration) stays long in one PTE table. */
    static final int PAGES = 64;

    @Override
    public String name() {
        return "gup-fast-vs-free";
    }

    @Override
    public String description() {
        return "catalogue: munmap frees a page table while another CPU is inside gup_fast (IRQs off)";
    }

    @Override
    int roles() {
        return 2;
    }

    @Override
    boolean sharesPcpus() {
        return true;
    }

    @Override
    Mm race(Kernel g, int cpus) {
        Mm mm = g.newMm();
        long r = map(mm, 1, PAGES);
        Flag populated = new Flag();
        Flag unmapped = new Flag();
        // The walker pins the range again and again from the moment it is populated until the
        // unmap returned; its phase against the unmapper is chosen among 64 offsets spanning
        // more than one pin.
        Op[] head = {populated.await(), delay(0, 6_300, 64)};
        // One pin op, issued again and again (each call restarts its walk): the explorer runs
        // this scenario tens of thousands of times, and a new op per pin was most of its garbage.
        Op pin = gupFast(mm, r, PAGES);
        g.spawnPinned("gup", mm, 1, new Program() {
            int i;

            @Override
            public Op next(Task t) {
                if (i < head.length) {
                    return head[i++];
                }
                return unmapped.isSet() ? null : pin;
            }
        });
        g.spawnPinned("unmapper", mm, 0, new Sequence(List.of(populate(r, PAGES), populated.raise(), spin(10_000),
                munmap(mm, r, PAGES), unmapped.raise(), sleep(2_000))));
        return mm;
    }
}
