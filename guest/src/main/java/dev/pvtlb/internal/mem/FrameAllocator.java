package dev.pvtlb.internal.mem;

import dev.pvtlb.model.ModelException;

/**
 * The page allocator. Free frames are handed out last-in first-out, like the per-CPU page
 * lists of the buddy allocator, so a page-table page freed a moment ago is the next frame a
 * page fault gets for data: a late walker then finds a data page where its table was.
 * Freed page-table frames are filled with {@link #POISON} (the kernel's {@code PAGE_POISON}
 * byte 0xaa, mm/poison.h) so tests can check that nobody wrote to a freed table.
 *
 * <p>User data is not modelled: nothing in the model reads or writes the bytes of a DATA frame
 * (every walker checks that a frame is a page table before reading it). So a data frame is
 * neither zeroed when handed out nor poisoned when freed, and keeps whatever it held; only
 * page-table frames are zeroed on allocation and poisoned on free. A page fault and the
 * munmap that frees its page then cost no 4 KiB fill at all, where they used to cost two (and
 * the first touch of every fresh frame of the guest's mapping).
 */
public final class FrameAllocator {
    public static final long POISON = 0xaaaaaaaaaaaaaaaaL;

    private final PhysMem mem;
    private final FrameTable table;
    private final int[] freeStack;
    private int freeCount;
    /*
     * The lowest freeCount since the last reset. Slots of the free stack below it were never
     * popped, so they still hold the order of a fresh allocator, and only frames popped at some
     * point (pfn 1 .. frames-1-lowWater, handed out in that order) can have changed state or
     * generation. A reset then costs what the schedule allocated, not the guest's size: the
     * explorer resets once per schedule.
     */
    private int lowWater;
    private long allocations;
    private long frees;

    public FrameAllocator(PhysMem mem) {
        this.mem = mem;
        this.table = new FrameTable(mem.frames());
        this.freeStack = new int[mem.frames()];
        reset(); // lowWater 0: fills the whole stack

    }

    /**
     * Returns every frame to the free list. Frames never handed out are left as they are (zero
     * in a fresh segment): poisoning them all would touch the whole segment at boot; a frame
     * is zeroed when allocated as a page table and poisoned when freed as one, which is what
     * walkers can observe.
     */
    public void reset() {
        int frames = mem.frames();
        if (lowWater == frames - 1 && freeCount == frames - 1) {
            // Nothing was ever allocated: already as new (apart from the counters).
            allocations = 0;
            frees = 0;
            return;
        }
        int from = Math.min(lowWater, freeCount);
        // Frame 0 stays reserved so that a zero PTE can never name a valid frame; slot k of a
        // fresh stack holds pfn frames-1-k, so pfn 1 is on top and handed out first.
        for (int k = from; k < frames - 1; k++) {
            freeStack[k] = frames - 1 - k;
        }
        table.reset(1, frames - from);
        freeCount = frames - 1;
        lowWater = freeCount;
        allocations = 0;
        frees = 0;
    }

    public FrameTable frames() {
        return table;
    }

    public PhysMem mem() {
        return mem;
    }

    public int freeFrames() {
        return freeCount;
    }

    public long allocations() {
        return allocations;
    }

    public long frees() {
        return frees;
    }

    /** Allocates a frame for {@code use}: a PAGE_TABLE frame zeroed, a DATA frame as it was. */
    public int alloc(FrameState use) {
        if (use == FrameState.FREE) {
            throw new IllegalArgumentException("cannot allocate a frame as FREE");
        }
        if (freeCount == 0) {
            throw new ModelException("guest out of memory: all " + (mem.frames() - 1)
                    + " frames of the " + (mem.bytes() >> 20) + " MiB segment are in use"
                    + " (raise memory in the scenario)");
        }
        int pfn = freeStack[--freeCount];
        if (freeCount < lowWater) {
            lowWater = freeCount;
        }
        table.set(pfn, use);
        if (use != FrameState.DATA) {
            mem.fill(pfn, 0);
        }
        allocations++;
        return pfn;
    }

    /** Frees a frame: poison it if it was a page table, bump its generation, push it on top of the free list. */
    public void free(int pfn) {
        if (pfn <= 0 || pfn >= mem.frames()) {
            throw new IllegalArgumentException("free of frame " + pfn + " outside memory");
        }
        if (table.state(pfn) == FrameState.FREE) {
            throw new IllegalStateException("double free of frame 0x" + Integer.toHexString(pfn));
        }
        boolean wasTable = table.state(pfn) == FrameState.PAGE_TABLE;
        table.set(pfn, FrameState.FREE);
        table.bumpGeneration(pfn);
        if (wasTable) {
            mem.fill(pfn, POISON);
        }
        freeStack[freeCount++] = pfn;
        frees++;
    }
}
