package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.internal.mem.FrameTable;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.internal.mmu.Level;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.mmu.WalkObserver;
import dev.pvtlb.internal.mmu.Walker;
import java.util.function.LongConsumer;

/**
 * gup_fast() (mm/gup.c, lockless_pages_from_mm): with IRQs off, walk the page tables in
 * software, one level per step, without taking any lock. Other CPUs act between the steps, so
 * a table this walk is about to read may have been unhooked, freed and reused meanwhile; only
 * the disabled IRQs (which hold off a flush IPI, hence the free) or RCU table freeing protect
 * it. Each read checks that the frame is still the live page table it was when its parent
 * entry was read, and reports a walk after free to the observer otherwise.
 */
public final class GupFast extends InternalPath {
    private final Mm mm;
    private final long va;
    private final LongConsumer result;
    private WalkObserver observer;
    private final int pages;
    private Level level;
    private int table;
    private int expectedGen;
    private int done;
    private long first;
    private boolean stalled;


    /** Walks {@code va}; hands the leaf PTE (0 when not present or the walk failed) to {@code result}. */
    public GupFast(Mm mm, long va, LongConsumer result) {
        this(mm, va, 1, result);
    }

    /**
     * Pins {@code pages} pages from {@code va} (gup_pte_range() over one page table: the range
     * is cut at the table's end). Each PTE read and page reference is one step, so the walk
     * stays inside the PTE table for as long as a large pin takes; hands the first page's PTE
     * (0 when the walk failed at once) to {@code result}.
     */
    public GupFast(Mm mm, long va, int pages, LongConsumer result) {
        this.mm = mm;
        this.va = va;
        int inTable = (int) (512 - ((va >>> 12) & 511));
        this.pages = Math.max(1, Math.min(pages, inTable));
        this.result = result;
    }

    public GupFast observer(WalkObserver o) {
        this.observer = o;
        return this;
    }

    @Override
    public long step(KernelCpu cpu) {
        Kernel g = cpu.kernel();
        FrameTable frames = g.allocator().frames();
        if (pc == 0) {
            if (observer == null) {
                observer = g.hazardDetector();
            }
            cpu.interrupts().disable();
            level = Level.PGD;
            table = mm.pgd();
            expectedGen = frames.generation(table);
            done = 0;
            first = 0;
            stalled = false;
            pc = 1;
            return g.costs().syscallNs / 2;
        }
        long cost = (g.costs().walkLevelPs + 999) / 1000;
        if (!frames.isPageTable(table) || frames.generation(table) != expectedGen) {
            observer.walkAfterFree(Walker.GUP_FAST, cpu.id, table, level, frames.state(table), expectedGen,
                    frames.generation(table));
            return finish(cpu, 0, cost);
        }
        if (level == Level.PTE) {
            // gup_pte_range(): read the PTE, take a reference on its page (try_grab_folio).
            long e = g.mem().readWord(table, level.index(va + ((long) done << 12)));
            if (done == 0) {
                first = e;
            }
            done++;
            cost += g.costs().pteOpNs;
            if (!Pte.present(e) || done == pages) {
                return finish(cpu, first, cost);
            }
            return cost;
        }
        long e = g.mem().readWord(table, level.index(va));
        if (!Pte.present(e)) {
            return finish(cpu, 0, cost);
        }
        long next = Pte.pfnOf(e);
        if (next == 0 || next >= frames.frames()) {
            observer.walkAfterFree(Walker.GUP_FAST, cpu.id, table, level, frames.state(table), expectedGen,
                    frames.generation(table));
            return finish(cpu, 0, cost);
        }
        table = (int) next;
        expectedGen = frames.generation(table);
        level = level.below();
        if (!stalled && g.speculation() != null && g.engine().choose(ChoicePoint.WALKER_STALL, 2) == 1) {
            // An NMI (a perf sample) between this read and the next: the walk holds a pointer to a
            // table that a flush not done by IPI (a hypercall, INVLPGB, a broadcast TLBI, RAR) lets
            // be freed meanwhile.
            stalled = true;
            cost += g.costs().nmiStallNs; // kernel.perf.nmi_max.ns: the longest NMI perf accepts
        }
        return cost;
    }

    @Override
    public String describe() {
        if (pc == 0) {
            return String.format("gup_fast(0x%x): local_irq_save", va);
        }
        if (level == Level.PTE) {
            // One line for the whole PTE loop: the step log folds repeats.
            return String.format("gup_fast(0x%x): gup_pte_range reading PTEs of table frame 0x%x (gen %d)", va, table, expectedGen);
        }
        return String.format("gup_fast(0x%x): read %s entry -> table frame 0x%x (gen %d)", va,
                level.name().toLowerCase(java.util.Locale.ROOT), table, expectedGen);
    }

    private long finish(KernelCpu cpu, long pte, long cost) {
        cpu.interrupts().enable();
        cpu.ret();
        result.accept(pte);
        return cost;
    }

    @Override
    public String name() {
        return "gup_fast";
    }
}
