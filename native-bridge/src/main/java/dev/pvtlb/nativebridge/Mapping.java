package dev.pvtlb.nativebridge;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A private anonymous region returned by {@link NativeOs#map}, owned by this object until
 * {@link #close()} unmaps it.
 *
 * <p>Every access is checked: the page index is in bounds, the region is still mapped, and
 * the page's protection allows the access. An access that failed those checks would be a
 * SIGSEGV inside the JVM, which no exception handler can catch. Reads, writes and madvise
 * share a read lock; mprotect and munmap take the write lock, so no access can be in
 * flight while a page turns inaccessible or disappears. Thread safe.
 */
public final class Mapping implements AutoCloseable {
    private final CheckedNativeOs owner;
    private final long address;
    private final long byteSize;
    private final long pageSize;
    private final RegionAccess memory;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final Protection[] protections; // per page, guarded by lock
    private volatile boolean live = true;   // written under the write lock

    Mapping(CheckedNativeOs owner, long address, long byteSize, long pageSize, Protection protection, RegionAccess memory) {
        this.owner = owner;
        this.address = address;
        this.byteSize = byteSize;
        this.pageSize = pageSize;
        this.memory = memory;
        this.protections = new Protection[Math.toIntExact(byteSize / pageSize)];
        Arrays.fill(protections, protection);
    }

    public long address() {
        return address;
    }

    /** The mapped length: the requested length rounded up to whole pages. */
    public long byteSize() {
        return byteSize;
    }

    public long pageSize() {
        return pageSize;
    }

    public int pageCount() {
        return protections.length;
    }

    public boolean isLive() {
        return live;
    }

    /** The protection this mapping last set on the page. */
    public Protection protection(int page) {
        lock.readLock().lock();
        try {
            checkPage(page, "protection");
            return protections[page];
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Reads the first byte of a page. */
    public byte read(int page) {
        lock.readLock().lock();
        try {
            checkAccess(page, false, "read");
            return memory.get(page * pageSize);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Writes the first byte of a page. */
    public void write(int page, byte value) {
        lock.readLock().lock();
        try {
            checkAccess(page, true, "write");
            memory.set(page * pageSize, value);
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * Writes the page's index (low 8 bits) into its first byte and reads it back, so the page
     * is faulted in writable and its translation is cached by this CPU's TLB.
     *
     * @return the byte read back
     */
    public byte touch(int page) {
        lock.readLock().lock();
        try {
            checkAccess(page, true, "touch");
            memory.set(page * pageSize, (byte) page);
            return memory.get(page * pageSize);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** {@link #touch} on {@code count} pages from {@code first}, under one lock hold; returns the sum read. */
    public long touchPages(int first, int count) {
        lock.readLock().lock();
        try {
            long sum = 0;
            for (int page = first; page < first + count; page++) {
                checkAccess(page, true, "touch");
                memory.set(page * pageSize, (byte) page);
                sum += memory.get(page * pageSize);
            }
            return sum;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** {@link #read} on {@code count} pages from {@code first}, under one lock hold; returns the sum read. */
    public long readPages(int first, int count) {
        lock.readLock().lock();
        try {
            long sum = 0;
            for (int page = first; page < first + count; page++) {
                checkAccess(page, false, "read");
                sum += memory.get(page * pageSize);
            }
            return sum;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** munmap; idempotent. */
    @Override
    public void close() {
        owner.unmap(this);
    }

    @Override
    public String toString() {
        return "Mapping[0x" + Long.toHexString(address) + ", " + byteSize + " bytes, " + (live ? "mapped" : "unmapped") + "]";
    }

    /** Runs an mprotect of [offset, offset+length) exclusively and records the new protection. */
    void protectRange(String call, long offset, long length, Protection protection, Runnable mprotect) {
        lock.writeLock().lock();
        try {
            checkRange(call, offset, length);
            int first = Math.toIntExact(offset / pageSize);
            int end = Math.toIntExact((offset + length + pageSize - 1) / pageSize);
            try {
                mprotect.run();
            } catch (RuntimeException failed) {
                // mprotect can fail after changing part of the range (ENOMEM while splitting
                // VMAs); from then on assume each page has only the rights both the old and
                // the new protection grant. An unaligned start is refused before any change.
                if (offset % pageSize == 0) {
                    for (int page = first; page < end; page++) {
                        protections[page] = weaker(protections[page], protection);
                    }
                }
                throw failed;
            }
            for (int page = first; page < end; page++) {
                protections[page] = protection;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Runs a madvise of [offset, offset+length); it changes contents, never protection, so it shares the lock. */
    void adviseRange(String call, long offset, long length, Runnable madvise) {
        lock.readLock().lock();
        try {
            checkRange(call, offset, length);
            madvise.run();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Runs munmap once, exclusively; later calls do nothing. */
    void retire(Runnable munmap) {
        lock.writeLock().lock();
        try {
            if (live) {
                munmap.run();
                live = false;
            }
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static Protection weaker(Protection a, Protection b) {
        return a.ordinal() <= b.ordinal() ? a : b; // NONE < READ < READ_WRITE
    }

    private void checkRange(String call, long offset, long length) {
        if (!live) {
            throw new IllegalStateException(call + ": " + this + " is already unmapped");
        }
        if (offset < 0 || length < 0 || offset > byteSize || length > byteSize - offset) {
            throw new IndexOutOfBoundsException(call + ": range [" + offset + ", " + offset + "+" + length
                    + ") is outside " + this);
        }
    }

    private void checkPage(int page, String what) {
        if (!live) {
            throw new IllegalStateException(what + " of page " + page + ": " + this + " is already unmapped");
        }
        if (page < 0 || page >= protections.length) {
            throw new IndexOutOfBoundsException(what + ": page " + page + " outside 0.." + (protections.length - 1) + " of " + this);
        }
    }

    private void checkAccess(int page, boolean write, String what) {
        checkPage(page, what);
        Protection p = protections[page];
        if (write ? !p.writable() : !p.readable()) {
            throw new IllegalStateException(what + " of page " + page + " of " + this + " would fault: page is " + p.cName());
        }
    }
}
