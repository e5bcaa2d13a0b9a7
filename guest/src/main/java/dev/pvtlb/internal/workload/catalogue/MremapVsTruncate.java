package dev.pvtlb.internal.workload.catalogue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.MovePageTables;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.workload.Flag;
import dev.pvtlb.internal.workload.Sequence;
import dev.pvtlb.internal.workload.Syscall;
import dev.pvtlb.internal.workload.Touch;
import java.util.ArrayList;
import java.util.List;

/**
 * Catalogue 9, CVE-2018-18281 (Jann Horn; fixed by eb66ae030829, "mremap: properly flush TLB
 * before releasing the page", 4.19): CPU 0 mremap()s two PTE tables' worth of a file mapping whose
 * pages CPU 2 reads (clean PTEs); CPU 1 truncates the file again and again, which zaps the new
 * addresses under the page-table lock only. With {@code mremapFlush=after-unlock} move_ptes() drops
 * the lock of the first extent unflushed; the truncate then finds the moved PTE, flushes the new
 * address, frees the page, and CPU 2 still reads it through its old address until the end of
 * move_page_tables(). {@code under-ptl} (the fix) flushes each extent before unlocking.
 */
public final class MremapVsTruncate extends Catalogue {
    @Override
    public String name() {
        return "mremap-vs-truncate";
    }

    @Override
    public String description() {
        return "catalogue: mremap flushes the old range after dropping the page-table lock; truncate frees the page (CVE-2018-18281)";
    }

    @Override
    int roles() {
        return 3;
    }

    @Override
    Mm race(Kernel g, int cpus) {
        Mm mm = g.newMm();
        long old = map(mm, 1, 1024);
        long moved = map(mm, 4, 1024);
        long len = 1024 * PAGE;
        Flag populated = new Flag();
        // Read faults: clean PTEs, as for a file page that is only read.
        g.spawnPinned("mover", mm, 0, new Sequence(List.of(new Touch(old, 2, 2, 0.0, true, null),
                new Touch(old + 512 * PAGE, 2, 2, 0.0, true, null), populated.raise(), sleep(1_000),
                delay(0, 3_100, 32), new Syscall(t -> new MovePageTables(mm, old, moved, len), null), spin(4_000))));
        List<Op> truncate = new ArrayList<>(List.of(populated.await(), sleep(1_000)));
        for (int k = 0; k < 40; k++) {
            truncate.add(new Syscall(t -> new ZapRange(mm, moved, moved + PAGE, ZapRange.Kind.TRUNCATE), null));
            truncate.add(spin(300));
        }
        g.spawnPinned("truncate", mm, 1, new Sequence(truncate));
        List<Op> reader = new ArrayList<>(List.of(populated.await()));
        for (int k = 0; k < 80; k++) {
            reader.add(new Touch(old, 1, 4, 0.0, false, null));
            reader.add(spin(200));
        }
        g.spawnPinned("reader", mm, 2, new Sequence(reader));
        return mm;
    }
}
