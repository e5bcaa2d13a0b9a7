package dev.pvtlb.mmu;

import dev.pvtlb.Guest;
import dev.pvtlb.mem.FrameState;
import dev.pvtlb.mem.FrameTable;
import dev.pvtlb.mm.Mm;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import java.util.function.LongConsumer;

/**
 * gup_fast() (mm/gup.c, lockless_pages_from_mm): with IRQs off, walk the page tables in
 * software, one level per step, without taking any lock. Other CPUs act between the steps, so
 * a table this walk is about to read may have been unhooked, freed and reused meanwhile; only
 * the disabled IRQs (which hold off a flush IPI, hence the free) or RCU table freeing protect
 * it. Each read checks that the frame is still the live page table it was when its parent
 * entry was read, and reports a walk after free to the observer otherwise.
 */
public final class GupFast extends KernelPath {
    private final Mm mm;
    private final long va;
    private final LongConsumer result;
    private WalkObserver observer;
    private Level level;
    private int table;
    private int expectedGen;

    /** Walks {@code va}; hands the leaf PTE (0 when not present or the walk failed) to {@code result}. */
    public GupFast(Mm mm, long va, LongConsumer result) {
        this.mm = mm;
        this.va = va;
        this.result = result;
    }

    public GupFast observer(WalkObserver o) {
        this.observer = o;
        return this;
    }

    @Override
    public long step(Cpu cpu) {
        Guest g = cpu.guest();
        FrameTable frames = g.allocator().frames();
        if (pc == 0) {
            if (observer == null) {
                observer = g.hazards();
            }
            cpu.irqDisable();
            level = Level.PGD;
            table = mm.pgd();
            expectedGen = frames.generation(table);
            pc = 1;
            return g.costs().syscallNs / 2;
        }
        long cost = (g.costs().walkLevelPs + 999) / 1000;
        if (frames.state(table) != FrameState.PAGE_TABLE || frames.generation(table) != expectedGen) {
            observer.walkAfterFree(Walker.GUP_FAST, cpu.id, table, level, frames.state(table), expectedGen,
                    frames.generation(table));
            return finish(cpu, 0, cost);
        }
        long e = g.mem().readWord(table, level.index(va));
        if (!Pte.present(e)) {
            return finish(cpu, 0, cost);
        }
        if (level == Level.PTE) {
            return finish(cpu, e, cost);
        }
        long next = Pte.pfnOf(e);
        if (next == 0 || !g.mem().contains(next << 12)) {
            observer.walkAfterFree(Walker.GUP_FAST, cpu.id, table, level, frames.state(table), expectedGen,
                    frames.generation(table));
            return finish(cpu, 0, cost);
        }
        table = (int) next;
        expectedGen = frames.generation(table);
        level = level.below();
        return cost;
    }

    @Override
    public String describe() {
        if (pc == 0) {
            return String.format("gup_fast(0x%x): local_irq_save", va);
        }
        return String.format("gup_fast(0x%x): read %s entry of table frame 0x%x (gen %d)", va,
                level.name().toLowerCase(java.util.Locale.ROOT), table, expectedGen);
    }

    private long finish(Cpu cpu, long pte, long cost) {
        cpu.irqEnable();
        cpu.ret();
        result.accept(pte);
        return cost;
    }

    @Override
    public String name() {
        return "gup_fast";
    }
}
