package dev.pvtlb.internal.mm;

/** {@code struct vm_area_struct}: a range of an address space with one protection. */
public final class Vma {
    long start;
    long end;
    boolean writable;
    /** A MAP_SHARED file mapping: its pages belong to the page cache, not to the process. */
    final boolean shared;
    /** The shmem file of a MAP_SHARED | MAP_ANONYMOUS mapping; null for any other. */
    final ShmemObject shmem;
    /**
     * A MAP_SHARED mapping of a file on a DAX filesystem (ext4 or xfs with -o dax): its pages are
     * the persistent memory itself, and a fault goes through the filesystem's DAX fault handler
     * (ext4_dax_huge_fault()), not the page cache's.
     */
    boolean dax;

    Vma(long start, long end, boolean writable, boolean shared, ShmemObject shmem) {
        this.start = start;
        this.end = end;
        this.writable = writable;
        this.shared = shared;
        this.shmem = shmem;
    }

    public long start() {
        return start;
    }

    public long end() {
        return end;
    }

    public boolean writable() {
        return writable;
    }

    public boolean shared() {
        return shared;
    }

    public boolean dax() {
        return dax;
    }

    /** Marks this mapping as one of a file on a DAX filesystem ({@link #dax}). */
    public Vma markDax() {
        if (!shared) {
            throw new IllegalStateException("a DAX mapping is a MAP_SHARED file mapping: " + this);
        }
        dax = true;
        return this;
    }

    @Override
    public String toString() {
        return String.format("[0x%x-0x%x %s%s]", start, end, writable ? "rw" : "r-", shared ? "s" : "p");
    }
}
