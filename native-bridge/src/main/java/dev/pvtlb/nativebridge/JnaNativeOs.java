package dev.pvtlb.nativebridge;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import dev.pvtlb.nativebridge.jna.CLibrary;

import java.util.Objects;

/** The JNA backend, over {@link CLibrary}; uses no FFM restricted method. */
public final class JnaNativeOs extends CheckedNativeOs {

    /** libc is bound on first use, so a process that picks FFM never loads JNA's stub. */
    private static final class Libc {
        static final CLibrary C = Native.load(Platform.C_LIBRARY_NAME, CLibrary.class);
    }

    /** errno of the thread's last LastErrorException, for {@link #lastErrno()}. */
    private static final ThreadLocal<int[]> LAST_ERRNO = ThreadLocal.withInitial(() -> new int[1]);

    public JnaNativeOs() {
        // Bind now, so a missing or refused libjnidispatch surfaces when the backend is chosen.
        Objects.requireNonNull(Libc.C);
    }

    @Override
    public String name() {
        return "jna";
    }

    @Override
    public int getpid() {
        return Libc.C.getpid();
    }

    @Override
    long mmap(long length, Protection protection) {
        try {
            return Pointer.nativeValue(Libc.C.mmap(null, length, prot(protection),
                    CLibrary.MAP_PRIVATE | CLibrary.MAP_ANONYMOUS, -1, 0L));
        } catch (LastErrorException e) {
            return failed(e);
        }
    }

    @Override
    int munmap(long address, long length) {
        try {
            return Libc.C.munmap(new Pointer(address), length);
        } catch (LastErrorException e) {
            return (int) failed(e);
        }
    }

    @Override
    int mprotect(long address, long length, Protection protection) {
        try {
            return Libc.C.mprotect(new Pointer(address), length, prot(protection));
        } catch (LastErrorException e) {
            return (int) failed(e);
        }
    }

    @Override
    int madvise(long address, long length, Advice advice) {
        try {
            return Libc.C.madvise(new Pointer(address), length, advice(advice));
        } catch (LastErrorException e) {
            return (int) failed(e);
        }
    }

    @Override
    int schedSetaffinity(int cpu) {
        long[] mask = new long[CLibrary.CPU_SETSIZE / Long.SIZE]; // CPU_ZERO
        mask[cpu / Long.SIZE] = 1L << (cpu % Long.SIZE);          // CPU_SET
        try {
            return Libc.C.sched_setaffinity(0, (long) mask.length * Long.BYTES, mask);
        } catch (LastErrorException e) {
            return (int) failed(e);
        }
    }

    @Override
    int schedGetcpu() {
        try {
            return Libc.C.sched_getcpu();
        } catch (LastErrorException e) {
            return (int) failed(e);
        }
    }

    @Override
    long sysconf(Sysconf name) {
        int cName = switch (name) {
            case PAGESIZE -> CLibrary._SC_PAGESIZE;
            case NPROCESSORS_ONLN -> CLibrary._SC_NPROCESSORS_ONLN;
        };
        try {
            return Libc.C.sysconf(cName);
        } catch (LastErrorException e) {
            return failed(e);
        }
    }

    @Override
    int lastErrno() {
        return LAST_ERRNO.get()[0];
    }

    @Override
    RegionAccess region(long address, long byteSize) {
        return new PointerRegion(new Pointer(address));
    }

    /** Back to libc's convention: remember errno, return -1. */
    private static long failed(LastErrorException e) {
        LAST_ERRNO.get()[0] = e.getErrorCode();
        return -1;
    }

    private static int prot(Protection protection) {
        return switch (protection) {
            case NONE -> CLibrary.PROT_NONE;
            case READ -> CLibrary.PROT_READ;
            case READ_WRITE -> CLibrary.PROT_READ | CLibrary.PROT_WRITE;
        };
    }

    private static int advice(Advice advice) {
        return switch (advice) {
            case NORMAL -> CLibrary.MADV_NORMAL;
            case RANDOM -> CLibrary.MADV_RANDOM;
            case SEQUENTIAL -> CLibrary.MADV_SEQUENTIAL;
            case WILLNEED -> CLibrary.MADV_WILLNEED;
            case DONTNEED -> CLibrary.MADV_DONTNEED;
        };
    }

    /** JNA's Pointer does no bounds check; Mapping's checks are the only guard here. */
    private record PointerRegion(Pointer base) implements RegionAccess {
        @Override
        public byte get(long offset) {
            return base.getByte(offset);
        }

        @Override
        public void set(long offset, byte value) {
            base.setByte(offset, value);
        }
    }
}
