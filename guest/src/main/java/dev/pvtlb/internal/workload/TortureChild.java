package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Mmap;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;

/**
 * A forked child of a torture thread: a process that maps memory, writes it, drops half of it
 * with MADV_DONTNEED, touches it again and exits (exit_mmap(): unmap_vmas() and free_pgtables(),
 * its tables going through tlb_remove_table()), as kernbench's jobs do. Its mm comes and goes on
 * its parent's CPU.
 */
final class TortureChild implements Program {
    private final Mm mm;
    private final int pages;
    private final long len;
    private int phase;
    private long region;

    TortureChild(Mm mm, int pages) {
        this.mm = mm;
        this.pages = pages;
        this.len = (long) pages * PhysMem.PAGE_SIZE;
    }

    @Override
    public Op next(Task task) {
        long r = region;
        switch (phase++) {
            case 0:
                return new Syscall(t -> new Mmap(mm, len, true, a -> region = a), null);
            case 1:
                return new Touch(r, pages, pages, 1.0, true, null);
            case 2: {
                long half = (long) Math.max(1, pages / 2) * PhysMem.PAGE_SIZE;
                return new Syscall(t -> new ZapRange(mm, r, r + half, ZapRange.Kind.MADV_DONTNEED), null);
            }
            case 3:
                return new Touch(r, pages, pages, 0.5, false, null);
            case 4:
                return new Syscall(t -> new ZapRange(mm, r, r + len, ZapRange.Kind.MUNMAP), null);
            default:
                return null;
        }
    }
}
