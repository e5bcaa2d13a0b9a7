package dev.pvtlb.bench;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.flush.FlushChecker;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.internal.kernel.FlushTlbMmRange;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.workload.Spin;
import dev.pvtlb.internal.workload.Syscall;
import dev.pvtlb.internal.workload.Touch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
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
 * What the model spends on one flush_tlb_mm_range() (arch/x86/mm/tlb.c) of a 16-page range in
 * a booted 16-CPU native guest whose mm is loaded on all 16 CPUs: the tlb_gen bump,
 * native_flush_tlb_multi()'s IPIs to the 15 others, flush_tlb_func() with one INVLPG per page
 * on every CPU, and the initiator's wait for them.
 *
 * <p>The guest runs in a steady state rather than being reset per invocation: CPU 0 re-reads
 * the range (refilling its TLB) and flushes it, again and again; CPUs 1..15 re-read it and
 * spin in 1 us steps, so they stay in the mm and take each IPI within a microsecond. One
 * invocation runs the engine from where the previous flush returned until the next one has
 * returned on CPU 0, so it also includes the other CPUs' steps in that window: about 75
 * engine steps and 2.5 us of virtual time in all.
 * Run: {@code java -jar benchmarks/target/benchmarks.jar FlushBench -wi 3 -i 5 -f 1 -w 1s -r 1s}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class FlushBench {
    static final int CPUS = 16;
    /** Below tlb_single_page_flush_ceiling (33), so every CPU flushes page by page. */
    static final int PAGES = 16;
    /** Far more steps than one flush round takes: a round that never ends fails, not hangs. */
    static final long MAX_STEPS_PER_FLUSH = 100_000;

    Kernel guest;
    Mm mm;
    long start;

    @Setup
    public void setUp() {
        guest = KernelBoot.boot(GuestConfig.builder().cpus(CPUS).memoryMiB(16).seed(1).build());
        mm = guest.newMm();
        start = Mm.MMAP_BASE;
        long end = start + PAGES * PhysMem.PAGE_SIZE;
        mm.insertVma(start, end, true, false);
        // CPU 0 faults the range in with its first pass (writes), then alternates flush and re-read.
        guest.spawn("flusher", mm, 0, alternate(new Touch(start, PAGES, PAGES, 1.0, true, null),
                () -> new Syscall(t -> new FlushTlbMmRange(mm, start, end, PhysMem.PAGE_SHIFT, false), null),
                () -> new Touch(start, PAGES, PAGES, 0.0, true, null)));
        for (int c = 1; c < CPUS; c++) {
            guest.spawn("reader" + c, mm, c, alternate(new Spin(20_000),
                    () -> new Touch(start, PAGES, PAGES, 0.0, true, null), () -> new Spin(2_000)));
        }
        // An invocation ends with the flush it measures.
        guest.checker(new FlushChecker() {
            @Override
            public void flushReturned(dev.pvtlb.smp.Cpu initiator, FlushTlbInfo info) {
                guest.engine().stop();
            }
        });
        for (int i = 0; i < 4; i++) {
            flush(); // every CPU has loaded the mm and is one tlb_gen behind at most
        }
    }

    /** A program that runs {@code first}, then {@code a} and {@code b} in turn, forever. */
    private static Program alternate(Op first, Supplier<Op> a, Supplier<Op> b) {
        return new Program() {
            private long n;

            @Override
            public Op next(Task t) {
                return n++ == 0 ? first : (n & 1) == 0 ? a.get() : b.get();
            }
        };
    }

    @TearDown
    public void tearDown() {
        guest.close();
    }

    /** Runs until CPU 0's next flush_tlb_mm_range() has returned; returns the steps it took. */
    @Benchmark
    public long flush() {
        long before = guest.engine().steps();
        guest.engine().run(Long.MAX_VALUE, MAX_STEPS_PER_FLUSH);
        if (!guest.engine().isStopped()) {
            throw new IllegalStateException("no flush returned within " + MAX_STEPS_PER_FLUSH + " steps");
        }
        return guest.engine().steps() - before;
    }
}
