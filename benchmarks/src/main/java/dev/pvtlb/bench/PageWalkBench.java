package dev.pvtlb.bench;

import dev.pvtlb.internal.mem.FrameAllocator;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mmu.HardwareWalker;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.PagingStructureCache;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.mmu.Walker;
import dev.pvtlb.profile.Profile;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The model's page walk on a TLB miss (the hardware's, SDM vol. 3A 4.5; what the kernel sets up
 * with set_pte_at()), over 4-level tables in off-heap guest memory:
 * <ul>
 * <li>{@link #pscHitWalk}: the PDE cache of the default profile's sizes holds the entry, so the
 *     walk reads only the PTE (one table read after the cache lookup).
 * <li>{@link #fullWalk}: a CPU without paging-structure caches reads all four levels (the
 *     lookups see empty caches and fills are no-ops). Target: under 20 ns.
 * </ul>
 * The leaf already has A and D set after the first walk, so neither writes memory.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar PageWalkBench -wi 3 -i 5 -f 1 -w 1s -r 1s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class PageWalkBench {
    /** A user address whose four indices are all non-zero. */
    static final long VA = 0x7f12_3456_7000L;
    private static final int PCID = 1;

    PhysMem mem;
    int pgd;
    int dataPfn;
    HardwareWalker cached;
    HardwareWalker uncached;

    @Setup
    public void setUp() {
        mem = new PhysMem(4L << 20);
        FrameAllocator alloc = new FrameAllocator(mem);
        PageTables tables = new PageTables(alloc);
        pgd = tables.allocPgd();
        dataPfn = alloc.alloc(FrameState.DATA);
        tables.set(pgd, VA, Pte.make(dataPfn, Pte.PRESENT | Pte.RW | Pte.USER));
        Profile p = Profile.load(Profile.DEFAULT);
        cached = new HardwareWalker(mem, alloc.frames(),
                new PagingStructureCache(p.integer("psc.pml4e"), p.integer("psc.pdpte"), p.integer("psc.pde")), 0);
        uncached = new HardwareWalker(mem, alloc.frames(), new PagingStructureCache(0, 0, 0), 1);
        cached.walk(pgd, PCID, VA, true, Walker.HARDWARE); // fills the caches, sets A and D
    }

    @TearDown
    public void tearDown() {
        mem.close();
    }

    @Benchmark
    public long pscHitWalk() {
        return cached.walk(pgd, PCID, VA, true, Walker.HARDWARE);
    }

    @Benchmark
    public long fullWalk() {
        return uncached.walk(pgd, PCID, VA, true, Walker.HARDWARE);
    }
}
