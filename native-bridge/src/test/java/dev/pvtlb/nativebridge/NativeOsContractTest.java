package dev.pvtlb.nativebridge;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The contract every NativeOs backend keeps, checked on real syscalls: the same test body
 * runs once per backend (see {@link Backends#all()}).
 */
class NativeOsContractTest {

    static java.util.stream.Stream<NativeOs> backends() {
        return Backends.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void mapsWholePagesAndReadsBackWhatEachPageGot(NativeOs os) {
        long page = os.pageSize();
        Mapping m = os.map(3 * page + 1, Protection.READ_WRITE);
        try {
            assertEquals(4 * page, m.byteSize());
            assertEquals(4, m.pageCount());
            assertEquals(0, m.address() % page);
            for (int i = 0; i < 4; i++) {
                assertEquals(0, m.read(i), "fresh anonymous memory is zero");
                m.write(i, (byte) (0x40 + i));
            }
            for (int i = 0; i < 4; i++) {
                assertEquals((byte) (0x40 + i), m.read(i));
            }
            assertEquals((byte) 2, m.touch(2));
            assertEquals(0 + 1 + 2 + 3, m.touchPages(0, 4));
        } finally {
            m.close();
        }
        assertFalse(m.isLive());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void mprotectToReadOnlyThenBack(NativeOs os) {
        long page = os.pageSize();
        try (Mapping m = os.map(3 * page, Protection.READ_WRITE)) {
            m.write(0, (byte) 7);
            os.protect(m, 0, 2 * page, Protection.READ);
            assertEquals(Protection.READ, m.protection(0));
            assertEquals(Protection.READ, m.protection(1));
            assertEquals(Protection.READ_WRITE, m.protection(2));
            assertEquals(7, m.read(0), "still readable");
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> m.write(0, (byte) 8));
            assertTrue(refused.getMessage().contains("PROT_READ"), refused.getMessage());
            m.write(2, (byte) 9); // the page outside the range stays writable

            os.protect(m, 0, 2 * page, Protection.READ_WRITE);
            m.write(0, (byte) 8);
            assertEquals(8, m.read(0));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void protNoneRefusesReadsInJava(NativeOs os) {
        try (Mapping m = os.map(os.pageSize(), Protection.READ_WRITE)) {
            os.protect(m, 0, m.byteSize(), Protection.NONE);
            assertThrows(IllegalStateException.class, () -> m.read(0));
            os.protect(m, 0, m.byteSize(), Protection.READ);
            assertEquals(0, m.read(0));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void madviseDontneedZeroesPrivateAnonymousPages(NativeOs os) {
        long page = os.pageSize();
        try (Mapping m = os.map(4 * page, Protection.READ_WRITE)) {
            for (int i = 0; i < 4; i++) {
                m.write(i, (byte) 0x5A);
            }
            os.advise(m, page, 2 * page, Advice.DONTNEED);
            assertEquals(0x5A, m.read(0));
            assertEquals(0, m.read(1));
            assertEquals(0, m.read(2));
            assertEquals(0x5A, m.read(3));

            os.advise(m, 0, m.byteSize(), Advice.DONTNEED);
            for (int i = 0; i < 4; i++) {
                assertEquals(0, m.read(i));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void lengthZeroIsEinvalFromTheKernel(NativeOs os) {
        NativeCallException e = assertThrows(NativeCallException.class, () -> os.map(0, Protection.READ_WRITE));
        assertEquals("mmap", e.call());
        assertEquals(22, e.errno());
        assertEquals("EINVAL", e.errnoName());
        assertFalse(e.rejectedInJava());
        assertEquals("mmap(addr=NULL, len=0, prot=PROT_READ|PROT_WRITE, flags=MAP_PRIVATE|MAP_ANONYMOUS, fd=-1, off=0)"
                + " failed: EINVAL (Invalid argument)", e.getMessage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void unalignedAddressIsEinvalFromTheKernelAndChangesNothing(NativeOs os) {
        long page = os.pageSize();
        try (Mapping m = os.map(2 * page, Protection.READ_WRITE)) {
            NativeCallException mprotect = assertThrows(NativeCallException.class,
                    () -> os.protect(m, 1, page, Protection.READ));
            assertEquals(22, mprotect.errno());
            assertFalse(mprotect.rejectedInJava());
            assertTrue(mprotect.getMessage().startsWith("mprotect(addr=0x" + Long.toHexString(m.address() + 1)
                    + ", len=" + page + ", prot=PROT_READ) failed: EINVAL"), mprotect.getMessage());
            assertEquals(Protection.READ_WRITE, m.protection(0));
            m.write(0, (byte) 1);

            NativeCallException madvise = assertThrows(NativeCallException.class,
                    () -> os.advise(m, 1, page, Advice.DONTNEED));
            assertEquals("madvise", madvise.call());
            assertEquals(22, madvise.errno());
            assertEquals(1, m.read(0), "nothing was dropped");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void negativeLengthIsRejectedBeforeTheCall(NativeOs os) {
        NativeCallException map = assertThrows(NativeCallException.class, () -> os.map(-4096, Protection.READ));
        assertTrue(map.rejectedInJava());
        assertEquals(22, map.errno());
        assertTrue(map.getMessage().contains("len=-4096") && map.getMessage().contains("negative length"), map.getMessage());

        try (Mapping m = os.map(os.pageSize(), Protection.READ_WRITE)) {
            NativeCallException protect = assertThrows(NativeCallException.class,
                    () -> os.protect(m, 0, -1, Protection.READ));
            assertEquals("mprotect", protect.call());
            assertTrue(protect.rejectedInJava());
            NativeCallException advise = assertThrows(NativeCallException.class,
                    () -> os.advise(m, 0, -1, Advice.DONTNEED));
            assertEquals("EINVAL", advise.errnoName());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void rangesOutsideTheMappingNeverReachTheKernel(NativeOs os) {
        long page = os.pageSize();
        try (Mapping m = os.map(2 * page, Protection.READ_WRITE)) {
            // mprotect of the next page would change memory this mapping does not own
            assertThrows(IndexOutOfBoundsException.class, () -> os.protect(m, page, 2 * page, Protection.NONE));
            assertThrows(IndexOutOfBoundsException.class, () -> os.advise(m, -page, page, Advice.DONTNEED));
            assertThrows(IndexOutOfBoundsException.class, () -> m.read(2));
            assertThrows(IndexOutOfBoundsException.class, () -> m.write(-1, (byte) 0));
            assertThrows(IndexOutOfBoundsException.class, () -> m.touchPages(1, 2));
            assertEquals(Protection.READ_WRITE, m.protection(1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void anUnmappedRegionIsNeverTouchedAgain(NativeOs os) {
        Mapping m = os.map(os.pageSize(), Protection.READ_WRITE);
        m.write(0, (byte) 1);
        os.unmap(m);
        assertFalse(m.isLive());
        assertThrows(IllegalStateException.class, () -> m.read(0));
        assertThrows(IllegalStateException.class, () -> m.touch(0));
        assertThrows(IllegalStateException.class, () -> os.protect(m, 0, os.pageSize(), Protection.READ));
        assertThrows(IllegalStateException.class, () -> os.advise(m, 0, os.pageSize(), Advice.DONTNEED));
        m.close();   // idempotent: a second munmap could hit a region mapped since at that address
        os.unmap(m);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void touchesRacingWithMprotectAndMunmapFailCleanly(NativeOs os) throws Exception {
        Mapping m = os.map(16 * os.pageSize(), Protection.READ_WRITE);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        Thread toucher = Thread.ofPlatform().start(() -> {
            while (!stop.get()) {
                try {
                    m.touchPages(0, 16);
                } catch (IllegalStateException refused) {
                    if (!m.isLive()) {
                        return; // unmapped under us: refused, not a SIGSEGV
                    }
                } catch (Throwable t) {
                    unexpected.set(t);
                    return;
                }
            }
        });
        for (int i = 0; i < 200; i++) {
            os.protect(m, 0, m.byteSize(), (i & 1) == 0 ? Protection.READ : Protection.READ_WRITE);
        }
        m.close();
        stop.set(true);
        toucher.join(5_000);
        assertFalse(toucher.isAlive());
        assertNull(unexpected.get());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void setAffinityPinsTheCallingThread(NativeOs os) throws Throwable {
        Backends.onFreshThread(() -> {
            for (int cpu = 0; cpu < os.onlineCpus(); cpu++) {
                os.setAffinity(cpu);
                assertEquals(cpu, os.currentCpu());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void anInvalidCpuIsEinval(NativeOs os) throws Throwable {
        Backends.onFreshThread(() -> {
            // a CPU cpu_set_t can express but this machine does not have: the kernel says EINVAL
            NativeCallException offline = assertThrows(NativeCallException.class, () -> os.setAffinity(1000));
            assertEquals("sched_setaffinity", offline.call());
            assertEquals(22, offline.errno());
            assertFalse(offline.rejectedInJava());
            assertEquals("sched_setaffinity(pid=0, cpusetsize=128, cpuset={1000}) failed: EINVAL (Invalid argument)",
                    offline.getMessage());
            // CPUs cpu_set_t cannot express never reach the kernel
            for (int cpu : new int[] {-1, 1024}) {
                NativeCallException outside = assertThrows(NativeCallException.class, () -> os.setAffinity(cpu));
                assertTrue(outside.rejectedInJava());
                assertEquals(22, outside.errno());
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void sysconfAndGetpidDescribeThisProcess(NativeOs os) {
        long page = os.pageSize();
        assertTrue(page >= 4096 && Long.bitCount(page) == 1, "page size " + page);
        assertTrue(os.onlineCpus() >= 1);
        assertTrue(Runtime.getRuntime().availableProcessors() <= os.onlineCpus());
        assertEquals(ProcessHandle.current().pid(), os.getpid());
        int cpu = os.currentCpu();
        assertTrue(cpu >= 0 && cpu < os.onlineCpus(), "cpu " + cpu);
    }
}
