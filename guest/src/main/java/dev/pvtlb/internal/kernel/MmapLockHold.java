package dev.pvtlb.internal.kernel;

/**
 * How a task holds (or wants) its mm's mmap_lock: not at all, for read (mmap_read_lock()) or for
 * write (mmap_write_lock()). Taken and released by {@link MmapLocking}.
 */
public enum MmapLockHold { NONE, READ, WRITE }
