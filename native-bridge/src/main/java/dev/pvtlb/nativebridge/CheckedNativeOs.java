package dev.pvtlb.nativebridge;

import java.util.Objects;

/**
 * What both backends share: the Java-side checks that keep every call harmless to the
 * JVM, the {@link Mapping} bookkeeping, and the exception messages (built here once, so
 * FFM and JNA report a failure identically). A backend only makes the raw libc calls, in
 * libc's own convention: return -1 and leave errno for {@link #lastErrno()}.
 */
abstract sealed class CheckedNativeOs implements NativeOs permits FfmNativeOs, JnaNativeOs {
    /** glibc's cpu_set_t has room for CPUs 0..1023; a larger number cannot be expressed in it. */
    static final int CPU_SETSIZE = 1024;

    enum Sysconf { PAGESIZE, NPROCESSORS_ONLN }

    private volatile long pageSize; // sysconf once; fixed for the life of the process

    // --- the raw calls, one per libc function ---

    /** mmap(NULL, length, prot, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0); the address, or -1 (MAP_FAILED). */
    abstract long mmap(long length, Protection protection);

    abstract int munmap(long address, long length);

    abstract int mprotect(long address, long length, Protection protection);

    abstract int madvise(long address, long length, Advice advice);

    /** sched_setaffinity(0, sizeof(cpu_set_t), {cpu}); cpu is within 0..CPU_SETSIZE-1. */
    abstract int schedSetaffinity(int cpu);

    abstract int schedGetcpu();

    abstract long sysconf(Sysconf name);

    /** errno left by this thread's last failed call through this backend. */
    abstract int lastErrno();

    /** Unchecked byte access to [address, address+byteSize); only Mapping uses it. */
    abstract RegionAccess region(long address, long byteSize);

    // --- the checked API ---

    @Override
    public final Mapping map(long length, Protection protection) {
        Objects.requireNonNull(protection, "protection");
        String args = "addr=NULL, len=" + length + ", prot=" + protection.cName()
                + ", flags=MAP_PRIVATE|MAP_ANONYMOUS, fd=-1, off=0";
        if (length < 0) {
            throw NativeCallException.rejected("mmap", args, Errno.EINVAL,
                    "negative length (as size_t it would be " + Long.toUnsignedString(length) + ")");
        }
        long address = mmap(length, protection);
        if (address == -1) {
            throw failure("mmap", args);
        }
        long page = pageSize();
        long size = (length + page - 1) / page * page;
        try {
            return new Mapping(this, address, size, page, protection, region(address, size));
        } catch (RuntimeException | Error e) {
            munmap(address, size); // do not leak the region if the view cannot be built
            throw e;
        }
    }

    @Override
    public final void protect(Mapping mapping, long offset, long length, Protection protection) {
        Objects.requireNonNull(protection, "protection");
        long address = mapping.address() + offset;
        String args = "addr=" + hex(address) + ", len=" + length + ", prot=" + protection.cName();
        requireNonNegative("mprotect", args, length);
        mapping.protectRange("mprotect(" + args + ")", offset, length, protection, () -> {
            if (mprotect(address, length, protection) != 0) {
                throw failure("mprotect", args);
            }
        });
    }

    @Override
    public final void advise(Mapping mapping, long offset, long length, Advice advice) {
        Objects.requireNonNull(advice, "advice");
        long address = mapping.address() + offset;
        String args = "addr=" + hex(address) + ", len=" + length + ", advice=" + advice.cName();
        requireNonNegative("madvise", args, length);
        mapping.adviseRange("madvise(" + args + ")", offset, length, () -> {
            if (madvise(address, length, advice) != 0) {
                throw failure("madvise", args);
            }
        });
    }

    @Override
    public final void unmap(Mapping mapping) {
        String args = "addr=" + hex(mapping.address()) + ", len=" + mapping.byteSize();
        mapping.retire(() -> {
            if (munmap(mapping.address(), mapping.byteSize()) != 0) {
                throw failure("munmap", args);
            }
        });
    }

    @Override
    public final void setAffinity(int cpu) {
        String args = "pid=0, cpusetsize=" + CPU_SETSIZE / 8 + ", cpuset={" + cpu + "}";
        if (cpu < 0 || cpu >= CPU_SETSIZE) {
            // CPU_SET would write outside the 128-byte set; the kernel never sees such a CPU.
            throw NativeCallException.rejected("sched_setaffinity", args, Errno.EINVAL,
                    "cpu outside cpu_set_t (0.." + (CPU_SETSIZE - 1) + ")");
        }
        if (schedSetaffinity(cpu) != 0) {
            throw failure("sched_setaffinity", args);
        }
    }

    @Override
    public final int currentCpu() {
        int cpu = schedGetcpu();
        if (cpu < 0) {
            throw failure("sched_getcpu", "");
        }
        return cpu;
    }

    @Override
    public final int onlineCpus() {
        long n = sysconf(Sysconf.NPROCESSORS_ONLN);
        if (n < 0) {
            throw failure("sysconf", "name=_SC_NPROCESSORS_ONLN");
        }
        return Math.toIntExact(n);
    }

    @Override
    public final long pageSize() {
        long size = pageSize;
        if (size == 0) {
            size = sysconf(Sysconf.PAGESIZE);
            if (size <= 0) {
                throw failure("sysconf", "name=_SC_PAGESIZE");
            }
            pageSize = size;
        }
        return size;
    }

    @Override
    public String toString() {
        return "NativeOs[" + name() + "]";
    }

    private NativeCallException failure(String call, String args) {
        return NativeCallException.failed(call, args, lastErrno());
    }

    private static void requireNonNegative(String call, String args, long length) {
        if (length < 0) {
            // As a size_t the kernel would see a range reaching far past the mapping.
            throw NativeCallException.rejected(call, args, Errno.EINVAL, "negative length");
        }
    }

    private static String hex(long address) {
        return "0x" + Long.toHexString(address);
    }
}
