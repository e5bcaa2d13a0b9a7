package dev.pvtlb.internal.mem;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * Kernel memory from an anonymous private mapping (mmap with MAP_NORESERVE) rather than
 * Arena.allocate, which zeroes the whole segment at once: for a 256 MiB guest that touches
 * 65,536 host pages before the first step (seconds on a host whose page faults go through a
 * hypervisor). The kernel hands out zero pages on first touch, so only frames the model uses
 * cost anything. Falls back to Arena.allocate where native calls are not permitted.
 */
// Restricted FFM calls (a downcall, and giving the mapping a size and a cleanup) are the point
// of this class; the launcher and the tests run with --enable-native-access=ALL-UNNAMED.
@SuppressWarnings("restricted")
final class AnonymousMemory {
    private static final int PROT_READ = 1;
    private static final int PROT_WRITE = 2;
    private static final int MAP_PRIVATE = 0x02;
    private static final int MAP_ANONYMOUS = 0x20;
    private static final int MAP_NORESERVE = 0x4000;
    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;

    static {
        MethodHandle mmap = null;
        MethodHandle munmap = null;
        try {
            if (System.getProperty("os.name", "").equals("Linux")) {
                Linker linker = Linker.nativeLinker();
                mmap = linker.downcallHandle(linker.defaultLookup().find("mmap").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.ADDRESS, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
                                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG));
                munmap = linker.downcallHandle(linker.defaultLookup().find("munmap").orElseThrow(),
                        FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
            }
        } catch (RuntimeException e) {
            mmap = null; // no native access: Arena.allocate instead
        }
        MMAP = mmap;
        MUNMAP = munmap;
    }

    private AnonymousMemory() {}

    /**
     * Below this size the malloc-backed Arena.allocate wins: its memory comes back warm from
     * the previous guest (the explorer boots one per schedule), while a fresh mapping faults
     * every page it uses again.
     */
    static final long MAPPING_THRESHOLD = 64L << 20;

    /** A zero-filled segment of {@code bytes}, freed when {@code arena} closes. */
    static MemorySegment allocate(Arena arena, long bytes) {
        if (MMAP != null && bytes >= MAPPING_THRESHOLD) {
            try {
                MemorySegment addr = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, bytes,
                        PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0L);
                if (addr.address() != -1L) {
                    return addr.reinterpret(bytes, arena, AnonymousMemory::unmap);
                }
            } catch (Throwable t) {
                // The mapping failed (or native calls are refused): the portable path below works.
            }
        }
        return arena.allocate(bytes, PhysMem.PAGE_SIZE);
    }

    private static void unmap(MemorySegment s) {
        try {
            int rc = (int) MUNMAP.invokeExact(s, s.byteSize());
            if (rc != 0) {
                throw new IllegalStateException("munmap of guest memory failed");
            }
        } catch (Throwable t) {
            throw new IllegalStateException("munmap of guest memory failed", t);
        }
    }
}
