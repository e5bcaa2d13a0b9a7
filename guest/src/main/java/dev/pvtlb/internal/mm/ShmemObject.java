package dev.pvtlb.internal.mm;

/**
 * The shmem file behind a {@code MAP_SHARED | MAP_ANONYMOUS} mapping: mmap() makes a new one for
 * each such call (shmem_zero_setup(), mm/shmem.c), and the VMA holds the only reference to it.
 * A split VMA's two halves share the file ({@code __split_vma()} takes a reference for the new
 * one), so the file goes only with its last mapping: remove_vma() drops the reference with fput(),
 * and the last fput() tears the file down (__fput(): dput, iput, shmem_evict_inode() truncating its
 * pages, the file, dentry and inode freed), which a task does on its way back to user mode
 * (task_work, since 4a9d4b024a31 "switch fput to task_work_add", 3.6): inside the munmap() call.
 */
public final class ShmemObject {
    private int mappings = 1;

    /** A VMA split off one that maps this file. */
    void mappedAgain() {
        mappings++;
    }

    /** A VMA mapping this file was removed: true when it was the last, so the file is torn down. */
    boolean unmapped() {
        return --mappings == 0;
    }
}
