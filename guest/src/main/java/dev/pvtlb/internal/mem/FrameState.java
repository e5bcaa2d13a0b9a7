package dev.pvtlb.internal.mem;

/** What a 4 KiB frame of guest memory holds, as the page allocator and the MMU code see it. */
public enum FrameState {
    FREE, PAGE_TABLE, DATA;

    static final FrameState[] VALUES = values();
}
