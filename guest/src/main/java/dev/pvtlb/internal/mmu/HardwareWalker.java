package dev.pvtlb.internal.mmu;

import dev.pvtlb.internal.mem.FrameTable;
import dev.pvtlb.internal.mem.PhysMem;

/**
 * The x86-64 page walker of one logical CPU (SDM vol. 3A, 4.5), reading the page tables in
 * guest memory and using that CPU's {@link PagingStructureCache}. It sets the accessed bit of
 * the leaf it uses and the dirty bit on a write, as the hardware does.
 *
 * <p>{@link #levelsRead()} after a walk says how many table reads it did (the cost driver);
 * a walk that meets a frame which is not a live page table reports it to the observer and
 * stops, as if it had read garbage.
 */
public final class HardwareWalker {
    private static final Level[] CACHED_LOWEST_FIRST = {Level.PMD, Level.PUD, Level.PGD};

    private final PhysMem mem;
    private final FrameTable frameTable;
    private final PagingStructureCache psc;
    private final int cpu;
    private WalkObserver observer = WalkObserver.NONE;
    private int levelsRead;
    /** The physical lines (frame << 6 | entry index / 8) of the last walk's table reads, in order. */
    private final long[] readLines = new long[5];

    public HardwareWalker(PhysMem mem, FrameTable frameTable, PagingStructureCache psc, int cpu) {
        this.mem = mem;
        this.frameTable = frameTable;
        this.psc = psc;
        this.cpu = cpu;
    }

    public void observer(WalkObserver o) {
        this.observer = o == null ? WalkObserver.NONE : o;
    }

    public PagingStructureCache psc() {
        return psc;
    }

    public int levelsRead() {
        return levelsRead;
    }

    /** The physical line of the last walk's {@code i}-th table read (0 = the first, from CR3 or a PSC entry). */
    public long readLine(int i) {
        return readLines[i];
    }

    /**
     * Translates {@code va} under CR3 = ({@code pgd}, {@code pcid}). Returns the leaf PTE
     * (present) or 0 when not present / not permitted, in which case the CPU takes a page fault.
     */
    public long walk(int pgd, int pcid, long va, boolean write, Walker kind) {
        levelsRead = 0;
        int table = pgd;
        Level level = Level.PGD;
        Walker how = kind;
        // Start as low as the paging-structure caches allow.
        for (Level l : CACHED_LOWEST_FIRST) {
            int slot = psc.lookup(pcid, va, l);
            if (slot >= 0) {
                int f = psc.frame(l, slot);
                int g = psc.generation(l, slot);
                if (!frameTable.isPageTable(f) || frameTable.generation(f) != g) {
                    observer.walkAfterFree(kind == Walker.HARDWARE ? Walker.PSC_ASSISTED : kind, cpu, f,
                            l.below(), frameTable.state(f), g, frameTable.generation(f));
                    return 0;
                }
                table = f;
                level = l.below();
                how = kind == Walker.HARDWARE ? Walker.PSC_ASSISTED : kind;
                break;
            }
        }
        int frames = frameTable.frames();
        int read = 0;
        while (true) {
            if (!frameTable.isPageTable(table)) {
                observer.walkAfterFree(how, cpu, table, level, frameTable.state(table),
                        frameTable.generation(table), frameTable.generation(table));
                return 0;
            }
            int idx = level.index(va);
            long e = mem.readWord(table, idx);
            readLines[read] = PageTables.entryLine(table, idx);
            read++;
            levelsRead = read;
            if (!Pte.present(e) || (write && !Pte.writable(e))) {
                return 0;
            }
            if (level == Level.PTE) {
                long upd = e | Pte.ACCESSED | (write ? Pte.DIRTY : 0);
                if (upd != e) {
                    mem.writeWord(table, idx, upd);
                }
                return upd;
            }
            long next = Pte.pfnOf(e);
            if (next == 0 || next >= frames) {
                // A garbage pointer (e.g. poison) in a table: the walk has gone wrong.
                observer.walkAfterFree(how, cpu, table, level, frameTable.state(table),
                        frameTable.generation(table), frameTable.generation(table));
                return 0;
            }
            if (psc.caches(level)) {
                psc.fill(pcid, va, level, (int) next, frameTable.generation((int) next));
            }
            table = (int) next;
            level = level.below();
        }
    }
}
