package dev.pvtlb.internal.mmu;

import dev.pvtlb.internal.mem.FrameState;

/**
 * Told when a walker reads a frame as a page table although the frame is no longer one it may
 * read: freed, or freed and reused, since the walk started or since the entry pointing to it
 * was cached. The hazard detector implements this; the default does nothing.
 */
public interface WalkObserver {
    WalkObserver NONE = (walker, cpu, pfn, level, nowState, expectedGen, nowGen) -> { };

    void walkAfterFree(Walker walker, int cpu, int pfn, Level level, FrameState nowState, int expectedGen, int nowGen);
}
