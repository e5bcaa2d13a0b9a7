package dev.pvtlb.internal.mem;

/**
 * Per-frame metadata, like the kernel's {@code struct page}: the frame's state and a
 * generation that changes on every free. A walker that remembers (frame, generation) can tell
 * later whether the frame it read as a page table was freed, and perhaps reused, since.
 */
public final class FrameTable {
    private static final byte PAGE_TABLE = (byte) FrameState.PAGE_TABLE.ordinal();

    private final byte[] state;
    private final int[] generation;

    FrameTable(int frames) {
        this.state = new byte[frames];
        this.generation = new int[frames];
    }

    public FrameState state(int pfn) {
        return FrameState.VALUES[state[pfn]];
    }

    /** state(pfn) == PAGE_TABLE, without the enum lookup (every level of every walk asks). */
    public boolean isPageTable(int pfn) {
        return state[pfn] == PAGE_TABLE;
    }

    public int generation(int pfn) {
        return generation[pfn];
    }

    public int frames() {
        return state.length;
    }

    void set(int pfn, FrameState s) {
        state[pfn] = (byte) s.ordinal();
    }

    void bumpGeneration(int pfn) {
        generation[pfn]++;
    }

    /** Frames [from, to) back to FREE and generation 0. */
    void reset(int from, int to) {
        java.util.Arrays.fill(state, from, to, (byte) FrameState.FREE.ordinal());
        java.util.Arrays.fill(generation, from, to, 0);
    }
}
