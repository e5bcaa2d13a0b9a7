package dev.pvtlb.nativebridge;

import dev.pvtlb.nativebridge.ffm.generated.cpu_set_t;
import dev.pvtlb.nativebridge.ffm.generated.mman_h;
import dev.pvtlb.nativebridge.ffm.generated.sched_h;
import dev.pvtlb.nativebridge.ffm.generated.unistd_h;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The FFM backend, over the jextract-shaped bindings in {@code ffm.generated}. Needs native
 * access for this module ({@code --enable-native-access=ALL-UNNAMED} on the class path).
 */
public final class FfmNativeOs extends CheckedNativeOs {
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    /**
     * One capture segment per thread, where the linker stores errno as each call returns
     * (reading errno afterwards would see whatever the JVM did in between). Each comes
     * from an automatic arena, so it is freed once its thread is gone.
     */
    private static final ThreadLocal<MemorySegment> CAPTURE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    /** @throws IllegalCallerException if this module may not link native calls */
    public FfmNativeOs() {
        try {
            // Link now, so a refusal surfaces when the backend is chosen, not mid-benchmark.
            mman_h.mmap$handle();
            sched_h.sched_setaffinity$handle();
            unistd_h.getpid$handle();
        } catch (ExceptionInInitializerError e) {
            if (e.getCause() instanceof IllegalCallerException refused) {
                throw refused;
            }
            throw e;
        }
    }

    @Override
    public String name() {
        return "ffm";
    }

    @Override
    public int getpid() {
        return unistd_h.getpid();
    }

    @Override
    long mmap(long length, Protection protection) {
        // jextract types void* results as segments of Long.MAX_VALUE bytes; only the
        // address is used, and Mapping builds the bounded view.
        return mman_h.mmap(CAPTURE.get(), MemorySegment.NULL, length, prot(protection),
                mman_h.MAP_PRIVATE() | mman_h.MAP_ANONYMOUS(), -1, 0L).address();
    }

    @Override
    int munmap(long address, long length) {
        return mman_h.munmap(CAPTURE.get(), MemorySegment.ofAddress(address), length);
    }

    @Override
    int mprotect(long address, long length, Protection protection) {
        return mman_h.mprotect(CAPTURE.get(), MemorySegment.ofAddress(address), length, prot(protection));
    }

    @Override
    int madvise(long address, long length, Advice advice) {
        return mman_h.madvise(CAPTURE.get(), MemorySegment.ofAddress(address), length, advice(advice));
    }

    @Override
    int schedSetaffinity(int cpu) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment set = cpu_set_t.allocate(arena); // zero-filled: CPU_ZERO
            cpu_set_t.__bits(set, cpu / Long.SIZE, 1L << (cpu % Long.SIZE)); // CPU_SET
            return sched_h.sched_setaffinity(CAPTURE.get(), 0, cpu_set_t.sizeof(), set);
        }
    }

    @Override
    int schedGetcpu() {
        return sched_h.sched_getcpu(CAPTURE.get());
    }

    @Override
    long sysconf(Sysconf name) {
        int cName = switch (name) {
            case PAGESIZE -> unistd_h._SC_PAGESIZE();
            case NPROCESSORS_ONLN -> unistd_h._SC_NPROCESSORS_ONLN();
        };
        return unistd_h.sysconf(CAPTURE.get(), cName);
    }

    @Override
    int lastErrno() {
        return (int) ERRNO.get(CAPTURE.get(), 0L);
    }

    @Override
    @SuppressWarnings("restricted") // sizing a region mmap just returned; Mapping bounds every access
    RegionAccess region(long address, long byteSize) {
        return new SegmentRegion(MemorySegment.ofAddress(address).reinterpret(byteSize));
    }

    private static int prot(Protection protection) {
        return switch (protection) {
            case NONE -> mman_h.PROT_NONE();
            case READ -> mman_h.PROT_READ();
            case READ_WRITE -> mman_h.PROT_READ() | mman_h.PROT_WRITE();
        };
    }

    private static int advice(Advice advice) {
        return switch (advice) {
            case NORMAL -> mman_h.MADV_NORMAL();
            case RANDOM -> mman_h.MADV_RANDOM();
            case SEQUENTIAL -> mman_h.MADV_SEQUENTIAL();
            case WILLNEED -> mman_h.MADV_WILLNEED();
            case DONTNEED -> mman_h.MADV_DONTNEED();
        };
    }

    /** The region as a bounded segment: FFM's own bounds check backs up Mapping's. */
    private record SegmentRegion(MemorySegment segment) implements RegionAccess {
        @Override
        public byte get(long offset) {
            return segment.get(ValueLayout.JAVA_BYTE, offset);
        }

        @Override
        public void set(long offset, byte value) {
            segment.set(ValueLayout.JAVA_BYTE, offset, value);
        }
    }
}
