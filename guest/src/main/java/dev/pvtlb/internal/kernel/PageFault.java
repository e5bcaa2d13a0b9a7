package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mm.Vma;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mmu.Level;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.Counter;

/**
 * handle_mm_fault() for anonymous memory: a not-present fault allocates a zeroed frame
 * (do_anonymous_page); a write fault on a read-only PTE of a writable VMA makes it writable
 * (do_wp_page reusing the page). With zeroPage=on a read fault on private anonymous memory maps
 * the shared zero page read-only, and a write to it copies it (wp_page_copy(), with its flush). An
 * access outside any VMA or against its protection is a workload bug and stops the run with a
 * message (SIGSEGV).
 */
public final class PageFault extends InternalPath {
    private Mm mm;
    private long va;
    private boolean write;

    /** The task whose read hold of the mmap_lock this fault releases when done, or null. */
    private Task lockHolder;
    /** Run by {@link #inline}: no path of its own on the CPU's stack to return from. */
    private boolean inline;

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

    /**
     * The fast level's fault taken inside a batch of user accesses: when handle_mm_fault() can
     * finish at once, with no lock another CPU may hold (no PTE-table lock to wait for, no zero
     * page to copy and flush, no rmqueue_bulk() refill or LRU drain under a zone or LRU lock), it
     * may run in the batch's step ({@link #inline}) with the cost the exact level's step has, and the batch goes
     * on; false otherwise, for the caller to take the fault as a path of its own. The caller
     * holds whatever mmap_lock the fault needs and releases it; {@code vma} is the fault's
     * (Mm.findVma() of its address, which the caller has looked up already).
     */
    public boolean canInline(KernelCpu cpu, Vma vma) {
        Kernel g = cpu.kernel();
        boolean zeroPage = g.knobs().zeroPage;
        if (zeroPage && mm.ptlHeldByOther(cpu.id, va, va + PhysMem.PAGE_SIZE)) {
            return false;
        }
        if (vma == null || (write && !vma.writable())) {
            return false; // the exact path stops the run with its message
        }
        int table = g.pageTables().tableAt(mm.pgd(), va, Level.PTE);
        long pte = table == 0 ? 0 : g.mem().readWord(table, Level.PTE.index(va));
        boolean newPage = !Pte.present(pte);
        boolean zeroMapped = zeroPage && !newPage && Pte.pfnOf(pte) == g.zeroPfnIfUsed();
        boolean zeroRead = zeroPage && !vma.shared() && newPage && !write;
        return !(zeroMapped && write) && !(newPage && !zeroRead && g.knobs().pageLocks
                && (cpu.pages.pcp <= 0 || cpu.pages.lruPagevec + 1 >= g.knobs().pagevec));
    }

    /**
     * What handle_mm_fault() costs in a VMA: fault.ns, or fault.dax.ns when the VMA maps a file on
     * a DAX filesystem (the filesystem's fault handler, {@link Vma#dax()}).
     */
    public static long costNs(dev.pvtlb.internal.profile.Costs c, Vma vma) {
        return vma != null && vma.dax() ? c.faultDax.ns() : c.faultNs;
    }

    /** Runs the fault {@link #canInline} accepted, in the caller's step; returns its cost in ns. */
    public long inline(KernelCpu cpu) {
        inline = true;
        restart();
        try {
            return step(cpu);
        } finally {
            inline = false;
        }
    }

    @Override
    public long step(KernelCpu cpu) {
        if (pc == 1) {
            cpu.ret();
            return MmapLocking.unlock(cpu, lockHolder); // mmap_read_unlock() at the end of do_user_addr_fault()
        }
        Kernel g = cpu.kernel();
        if (pc == 2) {
            return copied(cpu, g);
        }
        boolean zeroPage = g.knobs().zeroPage;
        if (zeroPage && mm.ptlHeldByOther(cpu.id, va, va + PhysMem.PAGE_SIZE)) {
            return g.costs().lineSameSocketNs; // the PTE table's lock: another CPU is copying a page of it
        }
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
        boolean anonymous = !vma.shared();
        if (zeroPage && anonymous && newPage && !write) {
            // do_anonymous_page(), a read: map the shared zero page read-only, allocate nothing.
            flags &= ~(Pte.RW | Pte.DIRTY);
            return mapped(cpu, g, table, idx, Pte.make(g.zeroPfn(), flags), false, vma);
        }
        boolean copy = zeroPage && write && !newPage && Pte.pfnOf(pte) == g.zeroPfnIfUsed();
        if ((newPage || copy) && g.knobs().pageLocks && PageListAllocation.refillFirst(cpu)) {
            return 0; // rmqueue_bulk() first; this step runs again after it
        }
        if (copy) {
            return copyZeroPage(cpu, g, table, idx, flags);
        }
        if (zeroPage && !newPage && Pte.pfnOf(pte) == g.zeroPfnIfUsed()) {
            flags &= ~(Pte.RW | Pte.DIRTY); // a read fault on the zero page leaves it read-only
        }
        long written = newPage ? Pte.make(g.allocator().alloc(FrameState.DATA), flags) : pte | flags;
        return mapped(cpu, g, table, idx, written, newPage, vma);
    }

    /** Installs {@code written} and returns from the fault (or goes on to drop the mmap_lock). */
    private long mapped(KernelCpu cpu, Kernel g, int table, int idx, long written, boolean newPage, Vma vma) {
        if (table != 0) {
            g.mem().writeWord(table, idx, written);
        } else {
            g.pageTables().set(mm.pgd(), va, written);
            table = g.pageTables().tableAt(mm.pgd(), va, Level.PTE);
        }
        // The fault wrote the PTE and (clear_page()) the whole data page: both lines are now in
        // this CPU's caches, so the access it retries does not miss to memory.
        cpu.localTlb().storeLine(PageTables.entryLine(table, idx));
        cpu.localTlb().storeLine(LocalTlb.dataLine(written, va));
        g.vmstat().inc(Counter.PAGE_FAULTS);
        finish(cpu);
        if (newPage && g.knobs().pageLocks) {
            PageListAllocation.tookAndAdded(cpu, (int) Pte.pfnOf(written)); // lru_cache_add(), before the fault returns
        }
        return costNs(g.costs(), vma);
    }

    private void finish(KernelCpu cpu) {
        if (inline) {
            return;
        }
        if (lockHolder != null) {
            pc = 1;
        } else {
            cpu.ret();
        }
    }

    private int copyTable;
    private int copyIdx;
    private int copyFrame;
    private long copyFlags;
    private long[] copyPending;

    /**
     * wp_page_copy() of the zero page: a new page (zeroed, as the copy of zeros is), then, under the
     * PTE table's lock, ptep_clear_flush(): the PTE is cleared and the page flushed from every CPU
     * of mm_cpumask (flush_tlb_page(), a remote shootdown when other CPUs run the mm), then the new
     * page is mapped writable ({@link #copied}).
     */
    private long copyZeroPage(KernelCpu cpu, Kernel g, int table, int idx, long flags) {
        if (!mm.ptlTryLock(cpu.id, va)) {
            return g.costs().lineSameSocketNs;
        }
        copyTable = table;
        copyIdx = idx;
        copyFlags = flags;
        copyFrame = g.allocator().alloc(FrameState.DATA);
        g.mem().writeWord(table, idx, 0);
        cpu.localTlb().storeLine(PageTables.entryLine(table, idx));
        copyPending = mm.beginFlushPending(va, va + PhysMem.PAGE_SIZE);
        pc = 2;
        cpu.call(new FlushTlbMmRange(mm, va, va + PhysMem.PAGE_SIZE, PhysMem.PAGE_SHIFT, false));
        return g.costs().faultNs;
    }

    /** The flush has returned: map the copy, drop the PTE table's lock, return from the fault. */
    private long copied(KernelCpu cpu, Kernel g) {
        mm.endFlushPending(copyPending);
        long written = Pte.make(copyFrame, copyFlags);
        g.mem().writeWord(copyTable, copyIdx, written);
        mm.ptlUnlock(va);
        cpu.localTlb().storeLine(PageTables.entryLine(copyTable, copyIdx));
        cpu.localTlb().storeLine(LocalTlb.dataLine(written, va));
        g.vmstat().inc(Counter.PAGE_FAULTS);
        finish(cpu);
        if (g.knobs().pageLocks) {
            PageListAllocation.tookAndAdded(cpu, copyFrame);
        }
        return 0;
    }

    @Override
    public String name() {
        return "handle_mm_fault";
    }
}
