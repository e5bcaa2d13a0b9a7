package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.mm.Mm;

/**
 * One process of tlb-torture: its mm, the slots its threads share, each thread's private slot,
 * and the spare range its mremaps move a slot's pages into. Every range is 2 MiB from the next,
 * so each has a PTE table of its own, which a munmap of the whole slot frees (free_pgtables()).
 */
final class TortureProcess {
    static final long SPAN = 2L << 20;

    final Mm mm;
    final TortureSlot[] shared;
    final TortureSlot[] own;
    /** The range mremap moves a slot's pages into; the slot's old range becomes the spare. Mapped, kept empty. */
    long spare;
    boolean spareBusy;
    /** A nested zap waiting for a second thread, or null. */
    NestedZap nested;

    TortureProcess(Mm mm, int sharedSlots, int threads, int pages) {
        this.mm = mm;
        this.shared = new TortureSlot[sharedSlots];
        this.own = new TortureSlot[threads];
        long len = (long) pages * 4096;
        int i = 0;
        for (int s = 0; s < sharedSlots; s++) {
            shared[s] = new TortureSlot(map(i++, len), pages);
        }
        for (int t = 0; t < threads; t++) {
            own[t] = new TortureSlot(map(i++, len), pages);
        }
        spare = map(i, len);
    }

    private long map(int i, long len) {
        long base = Mm.MMAP_BASE + i * SPAN;
        mm.insertVma(base, base + len, true, false);
        return base;
    }
}
