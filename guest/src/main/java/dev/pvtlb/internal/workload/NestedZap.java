package dev.pvtlb.internal.workload;

/**
 * tlb-torture's {@code nested} operation: a thread asks for a MADV_DONTNEED of a range and waits
 * until another thread of its process has started one of the same range, then zaps it too after
 * a delay the explorer chooses. The two zaps of one mm overlap, each seeing the other's
 * tlb_flush_pending (mm_tlb_flush_nested()): the second finds PTEs the first cleared but has not
 * flushed yet, the case tlb_finish_mmu() must flush anyway (99baac21e458, "mm: fix
 * MADV_[FREE|DONTNEED] TLB flush miss problem", and 7a30df49f63a for a munmap).
 */
final class NestedZap {
    final TortureThread requester;
    final TortureSlot slot;
    final int first;
    final int pages;
    /** Virtual time after which the requester zaps alone. */
    final long deadline;
    boolean taken;

    NestedZap(TortureThread requester, TortureSlot slot, int first, int pages, long deadline) {
        this.requester = requester;
        this.slot = slot;
        this.first = first;
        this.pages = pages;
        this.deadline = deadline;
    }
}
