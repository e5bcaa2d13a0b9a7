package dev.pvtlb.internal.mmu;

import java.util.Arrays;

/**
 * Intel's paging-structure caches (SDM vol. 3A, 4.10.3): per logical CPU, small caches of
 * upper-level entries tagged by PCID, so a TLB miss can skip the top of the walk. A PDE-cache
 * entry remembers which page-table page maps a 2 MiB region; if that page is freed and reused
 * while the entry stays cached, the next walk reads garbage. That is why freed page tables
 * must be flushed from every CPU that may hold them, lazy ones included.
 *
 * <p>Each entry stores the frame it points to and that frame's generation when cached.
 */
public final class PagingStructureCache {
    private static final long EMPTY = -1L;

    /** Levels whose entries are cached: PML4E (points to a PUD table), PDPTE (PMD), PDE (PTE). */
    private final int[] sizes;
    private final long[][] tags = new long[5][];
    private final int[][] frames = new int[5][];
    private final int[][] gens = new int[5][];
    private final int[] next = new int[5];

    /** @param pdeEntries, pdpteEntries, pml4eEntries capacities per level (0 disables one). */
    public PagingStructureCache(int pml4eEntries, int pdpteEntries, int pdeEntries) {
        sizes = new int[] {0, 0, pdeEntries, pdpteEntries, pml4eEntries};
        for (int d = 2; d <= 4; d++) {
            tags[d] = new long[sizes[d]];
            frames[d] = new int[sizes[d]];
            gens[d] = new int[sizes[d]];
            Arrays.fill(tags[d], EMPTY);
        }
    }

    private static long tag(int pcid, long va, Level level) {
        return ((long) pcid << 40) | (va >>> level.shift);
    }

    /**
     * Cached lookup of the entry of {@code level} (PMD, PUD or PGD) that covers {@code va}:
     * returns the slot index, or -1. The slot's {@link #frame} is the next-lower table.
     */
    public int lookup(int pcid, long va, Level level) {
        int d = level.depth;
        long t = tag(pcid, va, level);
        long[] tg = tags[d];
        for (int i = 0; i < tg.length; i++) {
            if (tg[i] == t) {
                return i;
            }
        }
        return -1;
    }

    public int frame(Level level, int slot) {
        return frames[level.depth][slot];
    }

    public int generation(Level level, int slot) {
        return gens[level.depth][slot];
    }

    /** Whether entries of {@code level} are cached at all (a profile may disable a level). */
    public boolean caches(Level level) {
        return sizes[level.depth] > 0;
    }

    /** Caches an upper-level entry, replacing round-robin. */
    public void fill(int pcid, long va, Level level, int lowerTable, int generation) {
        int d = level.depth;
        if (sizes[d] == 0) {
            return;
        }
        long t = tag(pcid, va, level);
        long[] tg = tags[d];
        int slot = -1;
        for (int i = 0; i < tg.length; i++) {
            if (tg[i] == t) {
                slot = i;
                break;
            }
        }
        if (slot < 0) {
            slot = next[d];
            next[d] = (slot + 1) % sizes[d];
        }
        tg[slot] = t;
        frames[d][slot] = lowerTable;
        gens[d][slot] = generation;
    }

    /** INVLPG and a PCID flush both drop all paging-structure-cache entries of the PCID (SDM 4.10.4.1). */
    public void flushPcid(int pcid) {
        for (int d = 2; d <= 4; d++) {
            long[] tg = tags[d];
            for (int i = 0; i < tg.length; i++) {
                if (tg[i] != EMPTY && (int) (tg[i] >>> 40) == pcid) {
                    tg[i] = EMPTY;
                }
            }
        }
    }

    public void flushAll() {
        for (int d = 2; d <= 4; d++) {
            Arrays.fill(tags[d], EMPTY);
        }
    }

    /** Back to the state of a new cache (flushed, replacement cursors at the start). */
    public void clear() {
        flushAll();
        Arrays.fill(next, 0);
    }

    /** Number of valid entries over all levels. */
    public int size() {
        int n = 0;
        for (int d = 2; d <= 4; d++) {
            for (long t : tags[d]) {
                if (t != EMPTY) n++;
            }
        }
        return n;
    }
}
