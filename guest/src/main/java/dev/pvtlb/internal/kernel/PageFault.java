package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mm.Vma;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mmu.Level;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.Counter;

/**
 * handle_mm_fault() for anonymous memory: a not-present fault allocates a zeroed frame
 * (do_anonymous_page); a write fault on a read-only PTE of a writable VMA makes it writable
 * (do_wp_page reusing the page). An access outside any VMA or against its protection is a
 * workload bug and stops the run with a message (SIGSEGV).
 */
public final class PageFault extends InternalPath {
    private Mm mm;
    private long va;
    private boolean write;

    /** The task whose read hold of the mmap_lock this fault releases when done, or null. */
    private Task lockHolder;

    public PageFault(Mm mm, long va, boolean write) {
        this(mm, va, write, null);
    }

    /** A fault taken by {@code lockHolder}, which holds the mmap_lock for reading and drops it when the fault is handled. */
    public PageFault(Mm mm, long va, boolean write, Task lockHolder) {
        of(mm, va, write, lockHolder);
    }

    /**
     * This fault object made into another fault, for a caller that takes one fault at a time
     * and reuses it once the last has returned (a batch of accesses faults again and again).
     */
    public PageFault of(Mm mm, long va, boolean write, Task lockHolder) {
        this.mm = mm;
        this.va = va & ~0xfffL;
        this.write = write;
        this.lockHolder = lockHolder;
        return this;
    }

    @Override
    public long step(KernelCpu cpu) {
        if (pc == 1) {
            cpu.ret();
            return MmapLocking.unlock(cpu, lockHolder); // mmap_read_unlock() at the end of do_user_addr_fault()
        }
        Kernel g = cpu.kernel();
        Vma vma = mm.findVma(va);
        if (vma == null || (write && !vma.writable())) {
            throw new ModelException(String.format("%s: segmentation fault at 0x%x (%s) on cpu%d",
                    mm, va, vma == null ? "no mapping" : "write to read-only mapping", cpu.id));
        }
        // One walk to the PTE table (there is one after the first fault in a 2 MiB range);
        // the tables are only allocated, after the data frame, when missing.
        int table = g.pageTables().tableAt(mm.pgd(), va, Level.PTE);
        int idx = Level.PTE.index(va);
        long pte = table == 0 ? 0 : g.mem().readWord(table, idx);
        long flags = Pte.PRESENT | Pte.USER | Pte.ACCESSED | Pte.NX | (vma.writable() ? Pte.RW : 0) | (write ? Pte.DIRTY : 0);
        boolean newPage = !Pte.present(pte);
        if (newPage && g.knobs().pageLocks && PageLists.refillFirst(cpu)) {
            return 0; // rmqueue_bulk() first; this step runs again after it
        }
        long written = newPage ? Pte.make(g.allocator().alloc(FrameState.DATA), flags) : pte | flags;
        if (table != 0) {
            g.mem().writeWord(table, idx, written);
        } else {
            g.pageTables().set(mm.pgd(), va, written);
            table = g.pageTables().tableAt(mm.pgd(), va, Level.PTE);
        }
        // The fault wrote the PTE and (clear_page()) the whole data page: both lines are now in
        // this CPU's caches, so the access it retries does not miss to memory.
        cpu.storeLine(PageTables.entryLine(table, idx));
        cpu.storeLine(KernelCpu.dataLine(written, va));
        g.vmstat().inc(Counter.PAGE_FAULTS);
        if (lockHolder != null) {
            pc = 1;
        } else {
            cpu.ret();
        }
        if (newPage && g.knobs().pageLocks) {
            PageLists.tookAndAdded(cpu); // lru_cache_add(), before the fault returns
        }
        return g.costs().faultNs;
    }

    @Override
    public String name() {
        return "handle_mm_fault";
    }
}
