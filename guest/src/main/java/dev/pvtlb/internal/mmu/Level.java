package dev.pvtlb.internal.mmu;

/**
 * The four x86-64 paging levels as Linux names them (p4d is folded with 4-level paging).
 * {@code shift} is the lowest virtual-address bit that the level's index covers.
 */
public enum Level {
    PTE(1, 12), PMD(2, 21), PUD(3, 30), PGD(4, 39);

    public final int depth;
    public final int shift;

    Level(int depth, int shift) {
        this.depth = depth;
        this.shift = shift;
    }

    public int index(long va) {
        return (int) ((va >>> shift) & 511);
    }

    /** Bytes of virtual address space one entry of this level covers. */
    public long entrySpan() {
        return 1L << shift;
    }

    public Level below() {
        return this == PTE ? null : BY_DEPTH[depth - 1];
    }

    private static final Level[] BY_DEPTH = {null, PTE, PMD, PUD, PGD};
}
