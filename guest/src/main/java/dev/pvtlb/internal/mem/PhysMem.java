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
        segment.set(WORD, ((long) pfn << PAGE_SHIFT) + ((long) index << 3), value);
    }

    /** Fills a whole frame with one 8-byte pattern. */
    public void fill(int pfn, long pattern) {
        long base = (long) pfn << PAGE_SHIFT;
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
