package dev.pvtlb.internal.mmu;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.mem.FrameAllocator;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mem.PhysMem;

/**
 * Software operations on x86-64 4-level page tables stored in guest memory: what
 * mm/memory.c, mm/mprotect.c and mm/pgtable-generic.c do to entries. The hardware walk that
 * a TLB miss triggers is {@link HardwareWalker}; this class is the kernel's side.
 */
public final class PageTables {
    /** End of the user half with 4-level paging (TASK_SIZE_MAX rounded to a page). */
    public static final long USER_VA_END = 0x0000_7FFF_FFFF_F000L;

    private final PhysMem mem;
    private final FrameAllocator alloc;

    public PageTables(FrameAllocator alloc) {
        this.alloc = alloc;
        this.mem = alloc.mem();
    }

    public PhysMem mem() {
        return mem;
    }

    public FrameAllocator allocator() {
        return alloc;
    }

    /** pgd_alloc(): a zeroed top-level table. */
    public int allocPgd() {
        return alloc.alloc(FrameState.PAGE_TABLE);
    }

    /** Rejects a range that is empty, unaligned or outside the user address space. */
    public static void checkUserRange(long start, long end) {
        if (start < 0 || end <= start || end > USER_VA_END
                || (start & (PhysMem.PAGE_SIZE - 1)) != 0 || (end & (PhysMem.PAGE_SIZE - 1)) != 0) {
            throw new ModelException(String.format(
                    "range [0x%x, 0x%x) is not a page-aligned non-empty part of the user address space [0, 0x%x)",
                    start, end, USER_VA_END));
        }
    }

    /** The leaf entry for {@code va}, or 0 if a table on the way is missing. */
    public long get(int pgd, long va) {
        int table = pgd;
        for (Level l = Level.PGD; l != Level.PTE; l = l.below()) {
            long e = mem.readWord(table, l.index(va));
            if (!Pte.present(e)) {
                return 0;
            }
            table = (int) Pte.pfnOf(e);
        }
        return mem.readWord(table, Level.PTE.index(va));
    }

    /** The table frame at {@code level} on the way to {@code va}, or 0 when missing. */
    public int tableAt(int pgd, long va, Level level) {
        int table = pgd;
        for (Level l = Level.PGD; l != level; l = l.below()) {
            long e = mem.readWord(table, l.index(va));
            if (!Pte.present(e)) {
                return 0;
            }
            table = (int) Pte.pfnOf(e);
        }
        return table;
    }

    /** The physical line (address >> 6) holding entry {@code index} of the table in frame {@code table}. */
    public static long entryLine(int table, int index) {
        return ((long) table << 6) | (index >>> 3);
    }

    /**
     * set_pte_at() after allocating missing tables (__pte_alloc, __pmd_alloc, __pud_alloc).
     * Returns the previous leaf value.
     */
    public long set(int pgd, long va, long pte) {
        int table = pgd;
        for (Level l = Level.PGD; l != Level.PTE; l = l.below()) {
            int idx = l.index(va);
            long e = mem.readWord(table, idx);
            if (!Pte.present(e)) {
                int child = alloc.alloc(FrameState.PAGE_TABLE);
                e = Pte.make(child, Pte.TABLE_FLAGS);
                mem.writeWord(table, idx, e);
            }
            table = (int) Pte.pfnOf(e);
        }
        int idx = Level.PTE.index(va);
        long old = mem.readWord(table, idx);
        mem.writeWord(table, idx, pte);
        return old;
    }

    /**
     * zap_pte_range() over [start, end) followed by free_pgtables(): clears present leaves and
     * unhooks page-table pages that are left empty and that no VMA covers any more. Everything
     * taken out goes to {@code sink}; nothing is freed here (the mmu_gather frees it after the
     * flush). The top-level table itself is never freed.
     */
    public void unmap(int pgd, long start, long end, UnmapSink sink) {
        unmapLevel(pgd, Level.PGD, start, end, 0, sink);
    }

    private void unmapLevel(int table, Level level, long start, long end, long base, UnmapSink sink) {
        long span = level.entrySpan();
        int first = level.index(start);
        int last = level.index(end - 1);
        for (int idx = first; idx <= last; idx++) {
            long entryVa = base + idx * span;
            long e = mem.readWord(table, idx);
            if (!Pte.present(e)) {
                continue;
            }
            if (level == Level.PTE) {
                mem.writeWord(table, idx, 0);
                sink.page(entryVa, e);
                continue;
            }
            int child = (int) Pte.pfnOf(e);
            unmapLevel(child, level.below(), Math.max(start, entryVa), Math.min(end, entryVa + span), entryVa, sink);
            if (isEmpty(child) && !sink.spanInUse(entryVa, entryVa + span)) {
                mem.writeWord(table, idx, 0);
                sink.table(child, level.below(), entryVa);
            }
        }
    }

    private boolean isEmpty(int table) {
        for (int i = 0; i < 512; i++) {
            if (mem.readWord(table, i) != 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * change_pte_range(): for each present leaf in [start, end), clear {@code clearBits} and set
     * {@code setBits}. Returns how many entries changed (the caller flushes when any did).
     */
    public int protect(int pgd, long start, long end, long clearBits, long setBits) {
        return protect(pgd, start, end, clearBits, setBits, 0);
    }

    /**
     * As above, but a PTE of frame {@code readOnlyPfn} (non-zero: the shared zero page) never gets
     * Pte.RW: mprotect() does not make the zero page writable (can_change_pte_writable() is false
     * for a page that is not the mm's own), and the next write still copies it.
     */
    public int protect(int pgd, long start, long end, long clearBits, long setBits, int readOnlyPfn) {
        int changed = 0;
        for (long va = start; va < end; ) {
            int pt = tableAt(pgd, va, Level.PTE);
            long tableEnd = (va | (Level.PMD.entrySpan() - 1)) + 1;
            long stop = Math.min(end, tableEnd);
            if (pt == 0) {
                va = stop;
                continue;
            }
            for (; va < stop; va += PhysMem.PAGE_SIZE) {
                int idx = Level.PTE.index(va);
                long e = mem.readWord(pt, idx);
                if (!Pte.present(e)) {
                    continue;
                }
                long n = (e & ~clearBits) | setBits;
                if (readOnlyPfn != 0 && Pte.pfnOf(e) == readOnlyPfn) {
                    n &= ~Pte.RW;
                }
                if (n != e) {
                    mem.writeWord(pt, idx, n);
                    changed++;
                }
            }
        }
        return changed;
    }

    /** Calls {@code visitor} for every page-table frame reachable from {@code pgd}, pgd included. */
    public void forEachTable(int pgd, java.util.function.IntConsumer visitor) {
        visit(pgd, Level.PGD, visitor);
    }

    private void visit(int table, Level level, java.util.function.IntConsumer visitor) {
        visitor.accept(table);
        if (level == Level.PTE) {
            return;
        }
        for (int i = 0; i < 512; i++) {
            long e = mem.readWord(table, i);
            if (Pte.present(e) && (e & Pte.PSE) == 0) {
                visit((int) Pte.pfnOf(e), level.below(), visitor);
            }
        }
    }
}
