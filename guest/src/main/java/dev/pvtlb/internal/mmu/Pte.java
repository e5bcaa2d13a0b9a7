package dev.pvtlb.internal.mmu;

/**
 * x86-64 paging-structure entry bits (Intel SDM vol. 3A, 4.5; arch/x86/include/asm/pgtable_types.h).
 * Entries are stored in guest memory exactly in this format.
 */
public final class Pte {
    public static final long PRESENT = 1L;
    public static final long RW = 1L << 1;
    public static final long USER = 1L << 2;
    public static final long PWT = 1L << 3;
    public static final long PCD = 1L << 4;
    public static final long ACCESSED = 1L << 5;
    public static final long DIRTY = 1L << 6;
    /** Page size: a 2 MiB or 1 GiB leaf at the PMD or PUD level. */
    public static final long PSE = 1L << 7;
    public static final long GLOBAL = 1L << 8;
    public static final long NX = 1L << 63;
    /** Physical frame bits 12..51. */
    public static final long PFN_MASK = 0x000F_FFFF_FFFF_F000L;
    /** What the kernel writes into an upper-level entry that points at a table (_PAGE_TABLE). */
    public static final long TABLE_FLAGS = PRESENT | RW | USER | ACCESSED | DIRTY;

    private Pte() {}

    public static boolean present(long e) {
        return (e & PRESENT) != 0;
    }

    public static boolean writable(long e) {
        return (e & RW) != 0;
    }

    public static long pfnOf(long e) {
        return (e & PFN_MASK) >>> 12;
    }

    public static long make(long pfn, long flags) {
        return (pfn << 12) & PFN_MASK | flags;
    }

    /** Human-readable bits, as in the kernel's page-table dumps. */
    public static String describe(long e) {
        if (!present(e)) {
            return e == 0 ? "none" : String.format("not-present 0x%x", e);
        }
        StringBuilder b = new StringBuilder(String.format("pfn 0x%x", pfnOf(e)));
        b.append(writable(e) ? " RW" : " ro");
        if ((e & USER) != 0) b.append(" USR");
        if ((e & ACCESSED) != 0) b.append(" A");
        if ((e & DIRTY) != 0) b.append(" D");
        if ((e & PSE) != 0) b.append(" PSE");
        if ((e & NX) != 0) b.append(" NX");
        return b.toString();
    }
}
