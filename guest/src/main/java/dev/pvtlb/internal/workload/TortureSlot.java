package dev.pvtlb.internal.workload;

/**
 * One mapping a torture thread works on: {@code pages} pages at {@code base}, with the user-space
 * rule that keeps a correct kernel from faulting outside a mapping. Accesses and MADV_DONTNEED
 * (which leaves the VMA) share it; munmap, mprotect and mremap (which change or move the VMA)
 * hold it alone, as a program would with a reader/writer lock around its own mapping changes.
 * Holding is tried, never waited for: a thread that cannot have the slot does something else, so
 * the threads never wait on each other. The model is single-threaded, so this is plain state.
 *
 * <p>The rule guards the VMA, not the TLBs: translations cached by an earlier access stay on every
 * CPU that made one, and the next access after the change returns is what the hazard detector
 * checks against the page tables.
 */
final class TortureSlot {
    /** Where the slot's pages are now: mremap moves them to the process's spare range. */
    long base;
    final int pages;
    /** Whether its VMA (and so its PTEs) is writable: mprotect flips it; writes are made only when set. */
    boolean writable = true;
    private int sharers;
    private boolean alone;

    TortureSlot(long base, int pages) {
        this.base = base;
        this.pages = pages;
    }

    /** An access or a MADV_DONTNEED may start: nobody is changing the VMA. */
    boolean tryShare() {
        if (alone) {
            return false;
        }
        sharers++;
        return true;
    }

    void unshare() {
        sharers--;
    }

    /** A VMA change may start: nobody else uses the slot. */
    boolean tryAlone() {
        if (alone || sharers > 0) {
            return false;
        }
        alone = true;
        return true;
    }

    void release() {
        alone = false;
    }
}
