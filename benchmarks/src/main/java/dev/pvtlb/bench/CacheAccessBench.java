package dev.pvtlb.bench;

import dev.pvtlb.internal.cache.SetAssociativeCache;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The two small caches every modelled user access goes through after its STLB hit
 * (KernelCpu.userAccess): the L1D (the default profile's 512 lines, 8 ways) and the L1 DTLB
 * (64 entries, 4 ways), each fed {@link #BATCH} keys of munmap-storm's shape per invocation: a
 * working set of 128 pages touched in a random order, one line each. The L1D holds them all
 * (every access hits); the DTLB holds half of them, so about every other access misses and the
 * outcome is as unpredictable for the host as it is in a run. The score is ns per access.
 * Measured here (2 vCPUs of an AMD EPYC, 2026-12-02): about 5 ns an L1D hit, 6 ns a DTLB access;
 * a branch-free compare of every way was slower (10 and 13 ns).
 * Run: {@code java -jar benchmarks/target/benchmarks.jar CacheAccessBench -wi 3 -i 5 -f 1 -w 1s -r 1s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class CacheAccessBench {
    static final int BATCH = 4096;
    static final int WORKING_SET = 128;

    SetAssociativeCache l1d;
    SetAssociativeCache dtlb;
    final long[] keys = new long[BATCH];

    @Setup
    public void setUp() {
        l1d = new SetAssociativeCache(512, 8);
        dtlb = new SetAssociativeCache(64, 4);
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < BATCH; i++) {
            keys[i] = 0x40000 + r.nextInt(WORKING_SET);
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int l1dAllHits() {
        int hits = 0;
        for (long k : keys) {
            hits += l1d.access(k << 6) ? 1 : 0;
        }
        return hits;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int dtlbHalfMisses() {
        int hits = 0;
        for (long k : keys) {
            hits += dtlb.access(k) ? 1 : 0;
        }
        return hits;
    }
}
