package dev.pvtlb.internal.mem;

import dev.pvtlb.model.ModelException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A guest's physical memory: one off-heap {@link MemorySegment} cut into 4 KiB frames
 * (DESIGN.md rule 4). Page tables live here in the hardware's format, so walkers read real
 * bytes, and a frame freed and reused for data reads as garbage to a late walker.
 */
public final class PhysMem implements AutoCloseable {
    public static final int PAGE_SHIFT = 12;
    public static final long PAGE_SIZE = 1L << PAGE_SHIFT;
    /** Smallest memory a guest can boot with: room for page tables and a few data pages. */
    public static final long MIN_BYTES = 1L << 20;
    /** Largest memory a guest may ask for; a bound so a typo cannot exhaust the host. */
    public static final long MAX_BYTES = 64L << 30;

    /*
     * Unaligned: every offset is a multiple of 8 in a page-aligned segment, and x86 needs no
     * alignment, so the aligned layout's per-access alignment check would buy nothing.
     */
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED;

    private final Arena arena;
    private final MemorySegment segment;
    private final long bytes;
    private final int frames;
    /*
     * The undo journal of a branch of a run (GraphCopy copies the Java objects of a model; its
     * memory is this one segment, shared with the run it branched from): the offset and old value
     * of every word written since journal() began, undone in reverse by rollback(). Null while no
     * branch runs, at the cost of one test per write.
     */
    private long[] journal;
    private int journalled;

    public PhysMem(long bytes) {
        if (bytes < MIN_BYTES || bytes > MAX_BYTES || bytes % PAGE_SIZE != 0) {
            throw new ModelException("memory must be a multiple of 4 KiB between 1 MiB and 64 GiB, got "
                    + bytes + " bytes");
        }
        this.bytes = bytes;
        this.frames = (int) (bytes >>> PAGE_SHIFT);
        this.arena = Arena.ofShared();
        this.segment = AnonymousMemory.allocate(arena, bytes);
    }

    public long bytes() {
        return bytes;
    }

    public int frames() {
        return frames;
    }

    /** Reads the 8-byte word at index {@code index} (0..511) of frame {@code pfn}. */
    public long readWord(int pfn, int index) {
        return segment.get(WORD, ((long) pfn << PAGE_SHIFT) + ((long) index << 3));
    }

    public void writeWord(int pfn, int index, long value) {
        long off = ((long) pfn << PAGE_SHIFT) + ((long) index << 3);
        if (journal != null) {
            remember(off);
        }
        segment.set(WORD, off, value);
    }

    /**
     * From now on, remembers what each write overwrites, so that {@link #rollback} can put the
     * memory back as it is now: a branch of the run writes to it, then its writes are undone.
     */
    public void journal() {
        if (journal != null) {
            throw new IllegalStateException("a branch is already journalled on this memory");
        }
        journal = new long[1024];
        journalled = 0;
    }

    /** Undoes every write since {@link #journal()}, newest first, and stops journalling. */
    public void rollback() {
        if (journal == null) {
            throw new IllegalStateException("no branch is journalled on this memory");
        }
        for (int i = journalled - 2; i >= 0; i -= 2) {
            segment.set(WORD, journal[i], journal[i + 1]);
        }
        journal = null;
        journalled = 0;
    }

    private void remember(long off) {
        if (journalled == journal.length) {
            journal = java.util.Arrays.copyOf(journal, journal.length * 2);
        }
        journal[journalled++] = off;
        journal[journalled++] = segment.get(WORD, off);
    }

    /** Fills a whole frame with one 8-byte pattern. */
    public void fill(int pfn, long pattern) {
        long base = (long) pfn << PAGE_SHIFT;
        if (journal != null) {
            for (long off = 0; off < PAGE_SIZE; off += 8) {
                remember(base + off);
            }
        }
        byte b = (byte) pattern;
        if (pattern == 0x0101010101010101L * (b & 0xff)) {
            segment.asSlice(base, PAGE_SIZE).fill(b);
            return;
        }
        for (long off = 0; off < PAGE_SIZE; off += 8) {
            segment.set(WORD, base + off, pattern);
        }
    }

    /** True when every word of the frame equals {@code pattern}. */
    public boolean isFilledWith(int pfn, long pattern) {
        long base = (long) pfn << PAGE_SHIFT;
        for (long off = 0; off < PAGE_SIZE; off += 8) {
            if (segment.get(WORD, base + off) != pattern) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        arena.close();
    }
}
