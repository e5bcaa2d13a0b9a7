package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.GupFast;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.Mmap;
import dev.pvtlb.internal.kernel.MovePageTables;
import dev.pvtlb.internal.kernel.Mprotect;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.TaskWakeup;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.sim.SplitMix;
import dev.pvtlb.model.ChoicePoint;
import java.util.ArrayDeque;

/**
 * One torture thread (rcutorture's rcu_torture_writer and readers in one): {@code ops} times it
 * draws an operation from the mix and a slot of its process (one of the shared ones or its own),
 * queues the operation's system calls and accesses, and ends it with a delay whose length the
 * explorer chooses (ChoicePoint.DELAY), which moves this thread's next operation against the
 * other CPUs' flushes. The draws come from the task's own random stream, so a seed fixes the mix
 * and the explorer varies only the timing.
 */
final class TortureThread implements Program {
    private final TortureRun run;
    private final TortureProcess proc;
    private final TortureSlot own;
    private final ArrayDeque<Op> queue = new ArrayDeque<>();
    private int opsLeft;

    TortureThread(TortureRun run, TortureProcess proc, TortureSlot own, int ops) {
        this.run = run;
        this.proc = proc;
        this.own = own;
        this.opsLeft = ops;
    }

    @Override
    public Op next(Task task) {
        Op op = queue.poll();
        if (op != null) {
            return op;
        }
        if (opsLeft == 0) {
            return null;
        }
        opsLeft--;
        plan(task);
        if (run.delayNs > 0) {
            queue.add(new Delay(0, run.delayNs, TortureRun.DELAY_POINTS));
        }
        return queue.poll();
    }

    /** Draws the next operation and queues it; one that cannot have its slot now is skipped. */
    private void plan(Task task) {
        if (joinNested()) {
            return;
        }
        SplitMix r = task.random();
        TortureMix.Kind kind = run.mix.pick(r);
        int pick = r.nextInt(proc.shared.length + 1);
        TortureSlot slot = pick < proc.shared.length ? proc.shared[pick] : own;
        int first = r.nextInt(slot.pages);
        int n = 1 + r.nextInt(slot.pages - first);
        if (r.nextInt(4) == 0) {
            first = 0; // the whole slot, a quarter of the time: a munmap of it frees its page tables
            n = slot.pages;
        }
        boolean planned = switch (kind) {
            case TOUCH -> touch(slot);
            case MADVISE -> madvise(slot, first, n);
            case MUNMAP -> munmap(slot, first, n);
            case MPROTECT -> mprotect(slot);
            case MREMAP -> mremap(slot);
            case GUP -> gup(slot, first, n);
            case FORK -> fork(task);
            case NAP -> nap();
            case NESTED -> nested(task, slot, first, n);
        };
        run.count(kind, planned);
        if (!planned) {
            // A skipped operation: one spin step (model.spin.step.ns) before the next draw.
            queue.add((cpu, t) -> {
                t.opDone();
                return Spin.step(cpu);
            });
        }
    }

    private static long at(TortureSlot s, int page) {
        return s.base + (long) page * PhysMem.PAGE_SIZE;
    }

    /** Random reads (and writes, while the slot is writable) of every page's worth of the slot. */
    private boolean touch(TortureSlot s) {
        if (!s.tryShare()) {
            return false;
        }
        queue.add(new Touch(s.base, s.pages, 2L * s.pages, s.writable ? 0.5 : 0.0, false, null));
        queue.add(SharedRegionRounds.now(s::unshare));
        return true;
    }

    /**
     * madvise(MADV_DONTNEED) (zap_page_range_single(), tlb_finish_mmu()) of part of the slot under
     * the read side: other threads' zaps of the same mm may be in flight (mm_tlb_flush_nested()).
     * The thread then faults the range back in.
     */
    private boolean madvise(TortureSlot s, int first, int n) {
        if (!s.tryShare()) {
            return false;
        }
        Mm mm = proc.mm;
        long start = at(s, first);
        long end = at(s, first + n);
        queue.add(new Syscall(t -> new ZapRange(mm, start, end, ZapRange.Kind.MADV_DONTNEED), null));
        queue.add(new Touch(start, n, n, s.writable ? 1.0 : 0.0, true, null));
        queue.add(SharedRegionRounds.now(s::unshare));
        return true;
    }

    /**
     * munmap() (do_vmi_align_munmap(): unmap_region(), free_pgtables(), tlb_finish_mmu()) of part
     * or all of the slot, then mmap(MAP_FIXED) of the same range: its next pages are new frames at
     * the old addresses, and the frames just freed go to the next allocation (the allocator is LIFO).
     */
    private boolean munmap(TortureSlot s, int first, int n) {
        if (!s.tryAlone()) {
            return false;
        }
        Mm mm = proc.mm;
        long start = at(s, first);
        long end = at(s, first + n);
        boolean writable = s.writable;
        queue.add(new Syscall(t -> new ZapRange(mm, start, end, ZapRange.Kind.MUNMAP), null));
        queue.add(new Syscall(t -> Mmap.fixed(mm, start, end, writable), null));
        queue.add(SharedRegionRounds.now(s::release));
        return true;
    }

    /**
     * Asks another thread of the process for a MADV_DONTNEED of the same range (NestedZap), waits
     * until one has started it (or a nap's length at most), then zaps the range itself after a
     * delay the explorer chooses, so that the two zaps overlap.
     */
    private boolean nested(Task task, TortureSlot s, int first, int n) {
        if (proc.nested != null || !s.tryShare()) {
            return false;
        }
        NestedZap z = new NestedZap(this, s, first, n, task.cpu().kernel().engine().now() + run.napNs);
        proc.nested = z;
        queue.add((cpu, t) -> {
            if (z.taken || cpu.kernel().engine().now() >= z.deadline) {
                t.opDone();
                return 1;
            }
            return Spin.step(cpu);
        });
        queue.add(SharedRegionRounds.now(() -> {
            if (proc.nested == z) {
                proc.nested = null; // nobody came: zap alone
            }
        }));
        queue.add(new Delay(0, run.delayNs, TortureRun.DELAY_POINTS));
        zap(s, first, n);
        return true;
    }

    /** Takes another thread's nested-zap request, if one waits: this thread's zap is the first of the two. */
    private boolean joinNested() {
        NestedZap z = proc.nested;
        if (z == null || z.requester == this || z.taken || !z.slot.tryShare()) {
            return false;
        }
        z.taken = true;
        proc.nested = null;
        zap(z.slot, z.first, z.pages);
        run.count(TortureMix.Kind.MADVISE, true);
        return true;
    }

    /** MADV_DONTNEED of [first, first + n) of a slot this thread shares, then lets it go. */
    private void zap(TortureSlot s, int first, int n) {
        Mm mm = proc.mm;
        long start = at(s, first);
        long end = at(s, first + n);
        queue.add(new Syscall(t -> new ZapRange(mm, start, end, ZapRange.Kind.MADV_DONTNEED), null));
        queue.add(SharedRegionRounds.now(s::unshare));
    }

    /** mprotect() of the whole slot to read-only, or back (change_protection(), flush_tlb_range()). */
    private boolean mprotect(TortureSlot s) {
        if (!s.tryAlone()) {
            return false;
        }
        Mm mm = proc.mm;
        long start = s.base;
        long end = at(s, s.pages);
        boolean to = !s.writable;
        queue.add(new Syscall(t -> new Mprotect(mm, start, end, to), null));
        queue.add(SharedRegionRounds.now(() -> {
            s.writable = to;
            s.release();
        }));
        return true;
    }

    /**
     * mremap(MREMAP_FIXED) of a writable slot's pages to the process's spare range
     * (move_page_tables(), move_ptes(), the old range flushed): the slot lives there from now on
     * and its old range, empty, is the next spare, so the next mremap moves pages into addresses
     * other CPUs may still have translations of.
     */
    private boolean mremap(TortureSlot s) {
        if (!s.writable || proc.spareBusy || !s.tryAlone()) {
            return false;
        }
        proc.spareBusy = true;
        Mm mm = proc.mm;
        long from = s.base;
        long to = proc.spare;
        long len = (long) s.pages * PhysMem.PAGE_SIZE;
        queue.add(new Syscall(t -> new MovePageTables(mm, from, to, len), null));
        queue.add(SharedRegionRounds.now(() -> {
            s.base = to;
            proc.spare = from;
            proc.spareBusy = false;
            s.release();
        }));
        return true;
    }

    /**
     * get_user_pages_fast() over part of the slot, holding nothing: a lockless walk with IRQs off
     * that may race the slot's munmap and the free of its page table. A failed pin is not an error.
     */
    private boolean gup(TortureSlot s, int first, int n) {
        Mm mm = proc.mm;
        long start = at(s, first);
        queue.add(new Syscall(t -> new GupFast(mm, start, n, pte -> { }), null));
        return true;
    }

    /**
     * fork() (kernel_clone()) of {@code children} child processes, each with an mm of its own,
     * queued on this CPU as wake_up_new_task() places a child when this CPU is the idlest; then
     * the parent waits a while, as in wait4(): the children run, the CPU switches to each child's
     * mm and back, and with more mms than TLB_NR_DYN_ASIDS (6) on a CPU its ASIDs/PCIDs are
     * reused for new mms (choose_new_asid()).
     */
    private boolean fork(Task task) {
        for (int k = 0; k < run.children; k++) {
            queue.add(new Syscall(t -> new KernelWork("kernel_clone", c -> c.syscallNs + c.vmaOpNs), null));
            queue.add((cpu, t) -> {
                Kernel g = cpu.kernel();
                Mm child = g.newMm();
                g.spawn(task.name + "/child" + run.forks++, child, cpu.id, new TortureChild(child, run.childPages));
                t.opDone();
                return 1;
            });
        }
        queue.add(napOp());
        return true;
    }

    /**
     * Block for a while (a nap of a length the explorer chooses): the CPU idles in lazy TLB mode on
     * the mm (or runs another task of the CPU) and comes back through switch_mm_irqs_off().
     */
    private boolean nap() {
        queue.add(napOp());
        return true;
    }

    private Op napOp() {
        long max = run.napNs;
        return (cpu, t) -> {
            long ns = cpu.kernel().engine().chooseInRange(ChoicePoint.DELAY, max / 8, max, TortureRun.DELAY_POINTS);
            t.opDone();
            TaskWakeup.sleep(t, Math.max(1, ns));
            return 0;
        };
    }
}
