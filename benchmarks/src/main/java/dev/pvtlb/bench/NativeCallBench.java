package dev.pvtlb.bench;

import dev.pvtlb.nativebridge.Mapping;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.Protection;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Per-call cost of the two {@link NativeOs} backends, FFM and JNA, on the same libc calls.
 * The difference between the backends on one call is the binding's overhead, since the
 * callee is the same:
 * <ul>
 * <li>{@link #schedGetcpu}: glibc 2.35 and later answer sched_getcpu() from the thread's
 *     rseq area without entering the kernel, so this is almost pure call overhead (older
 *     glibc takes the vDSO or a syscall).
 * <li>{@link #getpid}: the cheapest real system call, so the binding plus one kernel entry
 *     and exit (which a paravirtualized guest may pay through its host).
 * <li>{@link #mmapMunmap}: a one-page private anonymous mmap and its munmap, never touched,
 *     so no fault and no TLB entry: two syscalls with VMA work, plus {@link NativeOs}'s
 *     own bookkeeping (the Mapping object, errno capture).
 * </ul>
 * The JVM forks with native access enabled, so the FFM backend links without warnings.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar NativeCallBench -wi 3 -i 5 -f 1 -w 1s -r 1s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
// JMH 1.37 calls sun.misc.Unsafe.objectFieldOffset, which JDK 24+ warns about on every fork.
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"})
public class NativeCallBench {

    @Param({"ffm", "jna"})
    public String bridge;

    private NativeOs os;
    private long pageSize;

    @Setup
    public void setUp() {
        os = NativeOs.select(bridge);
        pageSize = os.pageSize();
    }

    @Benchmark
    public int schedGetcpu() {
        return os.currentCpu();
    }

    @Benchmark
    public int getpid() {
        return os.getpid();
    }

    @Benchmark
    public long mmapMunmap() {
        Mapping m = os.map(pageSize, Protection.READ_WRITE);
        long address = m.address();
        os.unmap(m);
        return address;
    }
}
