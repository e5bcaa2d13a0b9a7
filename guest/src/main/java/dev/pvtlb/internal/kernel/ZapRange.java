package dev.pvtlb.internal.kernel;

import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.pvops.InjectedBug;
import dev.pvtlb.pvops.TableFreePolicy;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.Counter;
import java.util.ArrayList;
import java.util.List;

/**
 * The munmap() and madvise(MADV_DONTNEED) paths: unmap the range into an mmu_gather, flush,
 * then free (tlb_finish_mmu -> tlb_flush_mmu: flush_tlb_mm_range, free the pages, and free
 * the page tables by the pv_ops table-free policy). munmap also removes the VMAs, so page
 * tables left empty with no VMA over them are freed too (free_pgtables); MADV_DONTNEED keeps
 * VMAs and tables.
 */
public final class ZapRange extends InternalPath {
    /**
     * Which system call this is. TRUNCATE is ftruncate()'s unmap_mapping_range() of a file
     * mapping: it zaps like MADV_DONTNEED (the VMA stays) without mmap_lock, serialized only by
     * the page-table lock.
     */
    public enum Kind { MUNMAP, MADV_DONTNEED, TRUNCATE }

    private final Mm mm;
    private final long start;
    private final long end;
    private final Kind kind;
    private MmuGather gather;
    private long[] pending;
    private boolean flushed;
    /** Shmem files whose last mapping this munmap removed: torn down before it returns. */
    private int releasedShmem;

    public ZapRange(Mm mm, long start, long end, Kind kind) {
        PageTables.checkUserRange(start, end);
        this.mm = mm;
        this.start = start;
        this.end = end;
        this.kind = kind;
    }

    /**
     * munmap write-locks (and downgrades before the zap); madvise(MADV_DONTNEED) only reads
     * (madvise_need_mmap_write() is false for it); a truncation takes i_mmap_rwsem, not mmap_lock.
     */
    @Override
    public MmapLockHold mmapLock() {
        return switch (kind) {
            case MUNMAP -> MmapLockHold.WRITE;
            case MADV_DONTNEED -> MmapLockHold.READ;
            case TRUNCATE -> MmapLockHold.NONE;
        };
    }

    @Override
    public long step(KernelCpu cpu) {
        Kernel g = cpu.kernel();
        Costs c = g.costs();
        switch (pc) {
            case 0 -> {
                if (ptlSpins(cpu)) {
                    return c.lineSameSocketNs;
                }
                long cost = c.syscallNs + c.vmaOpNs;
                gather = new MmuGather(cpu, mm);
                pending = mm.beginFlushPending(start, end);
                if (kind == Kind.MUNMAP) {
                    releasedShmem = mm.removeRange(start, end).releasedShmem();
                    // The VMAs are detached: the zap and its flush run under the read lock
                    // (mmap_write_downgrade in do_vmi_align_munmap; dd2283f2605e, 4.20).
                    cost += MmapLocking.downgrade(cpu, cpu.rq.current());
                }
                if (drainsFirst(cpu, g)) {
                    pc = 13;
                    return cost;
                }
                return cost + unmapAndFinish(cpu, g);
            }
            case 13 -> {
                // After lru_add_drain(): the zap, which may find a PTE table's lock taken meanwhile.
                if (ptlSpins(cpu)) {
                    return c.lineSameSocketNs;
                }
                return unmapAndFinish(cpu, g);
            }
            case 10 -> {
                // tlb_remove_table_one(): tlb_remove_table_smp_sync() on every other CPU, then free.
                CpuMask all = new CpuMask(g.cpus().length);
                all.setAll();
                pc = 11;
                cpu.call(new SmpCallFunctionMany("tlb_remove_table_smp_sync", all, t -> 0, null, false));
                return 0;
            }
            case 11 -> {
                long cost = freeTablesNow(g, gather.takeTables());
                return cost + finishMmu(cpu, g);
            }
            case 1 -> {
                // tlb_flush_mmu_free(): the flush has returned; free the pages now.
                mm.endFlushPending(pending);
                int[] pages = gather.pages();
                for (int pfn : pages) {
                    g.allocator().free(pfn);
                }
                // remove_vma() -> fput() of each shmem file that lost its last mapping: __fput()
                // runs as task_work on the way back to user mode, so the caller pays it here.
                long cost = (long) pages.length * c.pteOpNs + c.shmemRelease.times(releasedShmem);
                if (!flushed) {
                    // Returning without a flush of its own: the range must already be clean.
                    checkRangeClean(g, cpu, mm, start, end, name());
                }
                if (g.knobs().pageLocks && pages.length > 0) {
                    pc = 12;
                    cpu.call(released(cpu, pages)); // its locks, then the tables below
                    return cost;
                }
                return cost + freeTablesAfterPages(cpu, g);
            }
            case 12 -> {
                return freeTablesAfterPages(cpu, g);
            }
            default -> {
                // After tlb_remove_table_sync_one(): no lockless walker is left, free at once.
                cpu.ret();
                return freeTablesNow(g, gather.tables());
            }
        }
    }

    /**
     * lru_add_drain() at the start of unmap_region() and zap_page_range() (lruAddDrain, with
     * pageLocks=on): the pages this CPU's faults left in its LRU-add vector go onto the LRU under
     * lru_lock before the zap. True when the drain was pushed (the zap runs after it); false when
     * the vector is empty or the kernel has no such call.
     */
    private static boolean drainsFirst(KernelCpu cpu, Kernel g) {
        return g.knobs().pageLocks && g.knobs().lruAddDrain && PageListAllocation.drain(cpu);
    }

    /**
     * What the unmap's release_pages() does with the frames it freed (pageLocks=on): a page on an
     * LRU list comes off it; a page still in some CPU's LRU-add vector keeps the vector's
     * reference, so it is only marked, and freed when that vector drains ({@link PagevecLruAdd});
     * a page the workload's set-up mapped, on the LRU since before the run, comes off under the
     * lock with no list of its own.
     */
    private static ReleasePages released(KernelCpu cpu, int[] pfns) {
        LruPages pages = cpu.kernel().pageLists(cpu.socket()).pages;
        List<LruPage> onLists = new ArrayList<>();
        int untracked = 0;
        for (int pfn : pfns) {
            LruPage page = pages.freed(pfn);
            if (page == null) {
                untracked++;
            } else if (page.onList()) {
                onLists.add(page);
            } else {
                page.unmapped = true;
            }
        }
        return new ReleasePages(onLists.toArray(LruPage[]::new), untracked);
    }

    /** zap_pte_range() finds a PTE table's lock held by another CPU (a move_ptes()): it spins on the line. */
    private boolean ptlSpins(KernelCpu cpu) {
        return mm.ptlHeldByOther(cpu.id, start, end);
    }

    /** The zap itself, once the syscall's VMA work is done: unmap into the gather, then tlb_finish_mmu(). */
    private long unmapAndFinish(KernelCpu cpu, Kernel g) {
        Costs c = g.costs();
        g.pageTables().unmap(mm.pgd(), start, end, gather);
        long cost = (long) gather.clearedPtes() * c.pteOpNs;
        if (g.knobs().tableBatchFails && gather.tables().length > 0) {
            // tlb_remove_table() found no batch page: each table goes through
            // tlb_remove_table_one() before tlb_finish_mmu(). Since d86564a2f085 ("mm/tlb,
            // x86/mm: Support invalidating TLB caches for RCU_TABLE_FREE", 2018)
            // tlb_table_invalidate() flushes first; before it, nothing did.
            pc = 10;
            if (g.knobs().tableBatchInvalidates) {
                cpu.call(new FlushTlbMmRange(mm, gather.start(), gather.end(), PhysMem.PAGE_SHIFT, true));
            }
            return cost;
        }
        return cost + finishMmu(cpu, g);
    }

    /** The rest of tlb_flush_mmu_free() once the data pages are freed: the page tables, by the table-free policy. */
    private long freeTablesAfterPages(KernelCpu cpu, Kernel g) {
        int[] tables = gather.tables();
        if (tables.length == 0) {
            cpu.ret();
            return 0;
        }
        TableFreePolicy policy = g.pvOps().tableFreePolicy();
        switch (policy) {
            case IMMEDIATE -> {
                cpu.ret();
                return freeTablesNow(g, tables);
            }
            case RCU -> {
                cpu.ret();
                return freeTablesAfterGracePeriod(cpu, g, tables);
            }
            case IPI_SYNC -> {
                // tlb_remove_table_sync_one(): IPI every other CPU and wait, so no
                // IRQs-off walker (gup_fast) can still be inside the tables.
                CpuMask all = new CpuMask(g.cpus().length);
                all.setAll();
                pc = 2;
                cpu.call(new SmpCallFunctionMany("tlb_remove_table_sync_one", all, t -> 0, null, false));
            }
        }
        return 0;
    }

    /** tlb_finish_mmu(): start the flush of what was gathered (or of a nested zap's range). */
    private long finishMmu(KernelCpu cpu, Kernel g) {
        pc = 1;
        InjectedBug bug = g.knobs().bug;
        if (bug == InjectedBug.TABLES_FREED_BEFORE_FLUSH && gather.tables().length > 0) {
            freeTables(g, gather.takeTables());
        } else if (bug == InjectedBug.CALL_RCU_BEFORE_FLUSH && gather.tables().length > 0
                && g.pvOps().tableFreePolicy() == TableFreePolicy.RCU) {
            int[] tables = gather.takeTables();
            g.rcu().callRcu(cpu, on -> {
                freeTables(g, tables);
                return 0;
            });
        }
        if (g.knobs().nestedFlushResetsRange && mm.flushNested()) {
            // tlb_finish_mmu() from dd2283f2605e ("mm: mmap: zap pages with read mmap_sem in
            // munmap", 5.2) until 7a30df49f63a ("mm: mmu_gather: remove __tlb_reset_range()
            // for force flush"): a nested flush resets the gather first, freed_tables
            // included, and flushes [start, end) as if no table had been freed.
            flushed = true;
            cpu.call(new FlushTlbMmRange(mm, start, end, PhysMem.PAGE_SHIFT, false));
        } else if (gather.needsFlush()) {
            flushed = true;
            cpu.call(new FlushTlbMmRange(mm, gather.start(), gather.end(), PhysMem.PAGE_SHIFT, gather.freedTables()));
        } else if (mm.flushNested() && g.knobs().nestedFlush) {
            // tlb_finish_mmu(): another zap may have cleared PTEs of this range and not
            // flushed yet; flush the whole range (and tables) rather than return early.
            flushed = true;
            cpu.call(new FlushTlbMmRange(mm, start, end, PhysMem.PAGE_SHIFT, true));
        }
        return 0;
    }

    /** Frees page-table pages now, as the planted bugs and the batch-failure path do, at no cost of their own. */
    private static void freeTables(Kernel g, int[] tables) {
        for (int pfn : tables) {
            g.allocator().free(pfn);
        }
        g.vmstat().add(Counter.TABLES_FREED, tables.length);
    }

    /**
     * Frees page-table pages on the unmapping CPU right after the flush: without
     * MMU_GATHER_RCU_TABLE_FREE, tlb_remove_table() is tlb_remove_page() and the tables go back
     * with the data pages (tlb_flush_mmu_free()), each a pgtable.free.ns (the page-table page's
     * destructor and its return to the per-CPU free list). Returns the cost.
     */
    private static long freeTablesNow(Kernel g, int[] tables) {
        freeTables(g, tables);
        return g.costs().pgtableFree.times(tables.length);
    }

    /**
     * MMU_GATHER_RCU_TABLE_FREE (mm/mmu_gather.c): tlb_remove_table() put the tables in a batch
     * page taken with __get_free_page(GFP_NOWAIT); tlb_table_flush() hands it to call_rcu()
     * (tlb_remove_table_rcu). The caller pays the batch page's allocation and call_rcu(); after a
     * grace period the queuing CPU's RCU softirq frees each table and the batch page
     * (__tlb_remove_table_free()), each table's struct page read from memory by then (mem.ns).
     * One batch holds (PAGE_SIZE - header) / sizeof(void *) = 509 tables on x86-64
     * (MAX_TABLE_BATCH): every unmap here fits in one.
     */
    private static long freeTablesAfterGracePeriod(KernelCpu cpu, Kernel g, int[] tables) {
        Costs c = g.costs();
        g.rcu().callRcu(cpu, on -> {
            freeTables(g, tables);
            return (long) tables.length * (c.pgtableFree.ns() + c.memPs / 1000) + c.pgtableFree.ns();
        });
        return c.pgtableFree.ns() + c.rcuCall.ns();
    }

    @Override
    public String name() {
        return switch (kind) {
            case MUNMAP -> "munmap";
            case MADV_DONTNEED -> "madvise(MADV_DONTNEED)";
            case TRUNCATE -> "ftruncate";
        };
    }

    /**
     * A zap of [start, end) returns to user space without having flushed (its gather found
     * nothing to flush): every CPU executing the mm must hold no translation of the range that
     * disagrees with the page tables, since the caller now takes the range to be gone.
     */
    private static void checkRangeClean(Kernel guest, KernelCpu initiator, Mm mm, long start, long end, String syscall) {
        for (KernelCpu c : guest.cpus()) {
            if (c == initiator || c.loadedMm() != mm || c.tlbState.isLazy || !c.vcpuRunning()) {
                continue; // a vCPU that is not running may owe a deferred flush: it is checked when it uses one
            }
            int pcid = c.localTlb().currentPcid();
            long[] found = {-1, 0};
            c.localTlb().tlb().forEach((p, vpn, pte, filledAt) -> {
                long va = vpn << 12;
                if (found[0] < 0 && p == pcid && va >= start && va < end) {
                    long now = guest.pageTables().get(mm.pgd(), va);
                    if (!Pte.present(now) || Pte.pfnOf(now) != Pte.pfnOf(pte)) {
                        found[0] = va;
                        found[1] = pte;
                    }
                }
            });
            if (found[0] >= 0) {
                guest.hazardDetector().report(HazardKind.STALE_TRANSLATION, c.id, String.format(
                        "%s of [0x%x, 0x%x) returned on cpu%d without a flush while cpu%d still holds 0x%x -> %s",
                        syscall, start, end, initiator.id, c.id, found[0], Pte.describe(found[1])));
            }
        }
    }
}
