package dev.pvtlb.bench;

import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.internal.tlb.Tlb;
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
 * The TLB lookup every modelled user access starts with (KernelCpu.userAccess, as a Touch batch runs
 * it): {@link #BATCH} lookups of present entries in a shuffled order per invocation, so the
 * score is ns per access. The TLB has the default profile's shape (1536 entries, 12 ways); the
 * 1024 pages spread 8 to a set, so none is evicted and every lookup hits.
 * Target: under 5 ns per access.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar TlbLookupBench -wi 3 -i 5 -f 1 -w 1s -r 1s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class TlbLookupBench {
    static final int BATCH = 1024;
    private static final int PCID = 1;
    /** The batch's pages start where a process's mmap area does. */
    static final long BASE_VPN = Mm.MMAP_BASE >>> PhysMem.PAGE_SHIFT;

    Tlb tlb;
    final long[] vpns = new long[BATCH];

    @Setup
    public void setUp() {
        Profile p = Profile.load(Profile.DEFAULT);
        tlb = new Tlb(p.integer("tlb.entries"), p.integer("tlb.ways"));
        for (int i = 0; i < BATCH; i++) {
            vpns[i] = BASE_VPN + i;
            tlb.fill(PCID, vpns[i], Pte.make(0x100 + i, Pte.PRESENT | Pte.RW | Pte.USER | Pte.ACCESSED), 0);
        }
        SplittableRandom r = new SplittableRandom(42);
        for (int i = BATCH - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            long t = vpns[i];
            vpns[i] = vpns[j];
            vpns[j] = t;
        }
    }

    /** Returns how many of the {@link #BATCH} lookups hit. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int batchHit() {
        int hits = 0;
        for (long vpn : vpns) {
            if (tlb.lookup(PCID, vpn) >= 0) {
                hits++;
            }
        }
        return hits;
    }
}
