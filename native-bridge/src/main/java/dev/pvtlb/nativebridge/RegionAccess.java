package dev.pvtlb.nativebridge;

/**
 * Raw byte access to a mapped region, one per backend (a MemorySegment for FFM, a JNA
 * Pointer for JNA). Unchecked: only {@link Mapping} calls it, after its own checks.
 */
interface RegionAccess {
    byte get(long offset);

    void set(long offset, byte value);
}
