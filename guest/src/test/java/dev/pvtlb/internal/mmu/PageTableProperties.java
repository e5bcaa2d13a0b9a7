package dev.pvtlb.internal.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.internal.mem.FrameAllocator;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mem.PhysMem;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;

/**
 * Random map / unmap / protect sequences against a plain map from page to PTE; after each
 * unmap the gathered tables are freed (as the mmu_gather does after its flush) and the tables
 * reachable from the pgd must all be live, and every free frame must still hold its poison.
 */
class PageTableProperties {
    record Op(int kind, int firstPage, int pages) { }

    /** Pages spread over a few PMDs and two PGD slots so tables at every level come and go. */
    private static long va(int page) {
        long p = page % 2048;
        long pgdSlot = page >= 2048 ? 1L << 39 : 0;
        return 0x7f00_0000_0000L + pgdSlot + p * 4096;
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> op = Combinators.combine(Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 4000), Arbitraries.integers().between(1, 700)).as(Op::new);
        return op.list().ofMaxSize(40);
    }

    @Property(tries = 150)
    void agreesWithAReferenceMapAndFreesOnlyUnreachableTables(@ForAll("ops") @Size(max = 40) List<Op> ops) {
        try (PhysMem mem = new PhysMem(32L << 20)) {
            FrameAllocator alloc = new FrameAllocator(mem);
            PageTables pt = new PageTables(alloc);
            int pgd = pt.allocPgd();
            TreeMap<Long, Long> ref = new TreeMap<>();
            for (Op op : ops) {
                int last = Math.min(4095, op.firstPage() + op.pages() - 1);
                switch (op.kind()) {
                    case 0 -> {
                        for (int p = op.firstPage(); p <= last; p++) {
                            int data = alloc.alloc(FrameState.DATA);
                            long pte = Pte.make(data, Pte.PRESENT | Pte.RW | Pte.USER);
                            long old = pt.set(pgd, va(p), pte);
                            if (Pte.present(old)) {
                                alloc.free((int) Pte.pfnOf(old));
                            }
                            ref.put(va(p), pte);
                        }
                    }
                    case 1 -> {
                        List<Integer> tables = new ArrayList<>();
                        List<Long> pages = new ArrayList<>();
                        for (int p = op.firstPage(); p <= last; ) {
                            long s = va(p);
                            int q = p;
                            while (q <= last && va(q) == s + (long) (q - p) * 4096) {
                                q++;
                            }
                            pt.unmap(pgd, s, va(q - 1) + 4096, new UnmapSink() {
                                @Override
                                public void page(long v, long oldPte) {
                                    pages.add(oldPte);
                                    assertEquals(ref.remove(v), oldPte);
                                }

                                @Override
                                public void table(int pfn, Level level, long v) {
                                    tables.add(pfn);
                                }

                                @Override
                                public boolean spanInUse(long a, long b) {
                                    return false;
                                }
                            });
                            p = q;
                        }
                        for (long old : pages) {
                            alloc.free((int) Pte.pfnOf(old));
                        }
                        for (int t : tables) {
                            alloc.free(t);
                        }
                    }
                    default -> {
                        for (int p = op.firstPage(); p <= last; p++) {
                            pt.protect(pgd, va(p), va(p) + 4096, Pte.RW, 0);
                            ref.computeIfPresent(va(p), (k, v) -> v & ~Pte.RW);
                        }
                    }
                }
                Set<Integer> reachable = new HashSet<>();
                pt.forEachTable(pgd, reachable::add);
                for (int t : reachable) {
                    assertEquals(FrameState.PAGE_TABLE, alloc.frames().state(t), "reachable table 0x" + Integer.toHexString(t));
                }
            }
            for (int p = 0; p < 4096; p += 7) {
                assertEquals(ref.getOrDefault(va(p), 0L), pt.get(pgd, va(p)), "page " + p);
            }
            for (var e : ref.entrySet()) {
                assertEquals(e.getValue(), pt.get(pgd, e.getKey()));
            }
            for (int f = 1; f < mem.frames(); f++) {
                if (alloc.frames().state(f) == FrameState.FREE) {
                    assertTrue(mem.isFilledWith(f, FrameAllocator.POISON), "poison of free frame " + f);
                }
            }
        }
    }
}
