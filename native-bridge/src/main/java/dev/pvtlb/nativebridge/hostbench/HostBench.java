package dev.pvtlb.nativebridge.hostbench;

import dev.pvtlb.nativebridge.Advice;
import dev.pvtlb.nativebridge.Mapping;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.Protection;
import dev.pvtlb.nativebridge.probe.HostProbe;
import dev.pvtlb.nativebridge.probe.TlbCounters;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Real TLB-shootdown workloads on the host. An initiator thread and {@code threads} remote
 * threads are pinned to CPUs through {@link NativeOs#setAffinity}; the remote threads
 * touch the initiator's mappings so their CPUs cache translations for them, then the
 * initiator changes the mappings (munmap, mprotect, madvise) and times the call with
 * System.nanoTime. On x86 each such change ends in flush_tlb_mm_range(), which must reach
 * every other CPU running this address space: by IPI natively, by hypercall under
 * PVM or Hyper-V. TLB counters are read before and after each run.
 */
public final class HostBench {
    private static final long GRACE_NANOS = Duration.ofSeconds(2).toNanos();
    private static final int VICTIM_STEPS = 100_000;      // ~0.1-0.5 ms of work per victim chunk
    private static final int VICTIM_SCRATCH = 1 << 16;    // 512 KiB of longs: 128 pages of TLB reach

    /** The benchmarks {@link #byName} runs, by the names {@code pvtlb host bench} takes. */
    public static final List<String> NAMES = List.of("munmap-storm", "mprotect-noise", "madvise-touch");

    private final NativeOs os;
    private final HostProbe probe;

    public HostBench(NativeOs os, HostProbe probe) {
        this.os = Objects.requireNonNull(os, "os");
        this.probe = Objects.requireNonNull(probe, "probe");
    }

    /**
     * Runs one of {@link #NAMES}.
     *
     * @throws IllegalArgumentException for any other name
     */
    public HostBenchResult byName(String name, int threads, int[] cpus, BenchLimits limits) {
        return switch (name) {
            case "munmap-storm" -> munmapStorm(threads, cpus, limits);
            case "mprotect-noise" -> mprotectNoise(threads, cpus, limits);
            case "madvise-touch" -> madviseTouch(threads, cpus, limits);
            default -> throw new IllegalArgumentException("unknown host benchmark '" + name + "' ("
                    + String.join(", ", NAMES) + ")");
        };
    }

    /**
     * Per round: map a region, touch it from the initiator and read it from every remote
     * thread ({@code access_ns}: per page, on the remote threads), then time its munmap
     * ({@code munmap_ns}), which has to shoot down the remote CPUs' entries.
     */
    public HostBenchResult munmapStorm(int threads, int[] cpus, BenchLimits limits) {
        requireRemoteThreads("munmap-storm", threads);
        return run("munmap-storm", threads, cpus, limits, munmapRounds(threads, limits));
    }

    /**
     * The rounds of {@link #munmapStorm} with no remote thread, on {@code cpu} alone
     * ({@code munmap_ns} only): the baseline a remote shootdown adds to. No other thread of
     * this process is made to run meanwhile, but that does not empty mm_cpumask: the JVM's
     * own threads (JIT compilers, GC) run on other CPUs now and then, and a CPU that ran this
     * process lately stays in the mask in lazy TLB mode, which a munmap that frees page
     * tables must flush too. So the baseline can hold remote flushes of its own, of idle CPUs
     * (a halted vCPU can be dearer to reach than a running one).
     */
    public HostBenchResult munmapAlone(int cpu, BenchLimits limits) {
        return run("munmap-alone", 0, new int[] {cpu}, limits, munmapRounds(0, limits));
    }

    /**
     * Lone munmaps of two sizes, {@code limits.pages()} and {@code largePages} written pages, in
     * turns (small, large, small, ...), so that a slow phase of the host hits both sizes alike and
     * their difference, the per-page cost, is not a difference of two phases. Metrics
     * {@code munmap_ns} (the small size) and {@code munmap_large_ns}.
     */
    public HostBenchResult munmapAlonePair(int cpu, int largePages, BenchLimits limits) {
        if (largePages < 1) {
            throw new IllegalArgumentException("munmap-alone-pair needs at least one large page, got " + largePages);
        }
        return run("munmap-alone-pair", 0, new int[] {cpu}, limits, (crew, deadline) -> {
            Samples small = new Samples();
            Samples large = new Samples();
            int rounds = 0;
            while (rounds < limits.iterations() && System.nanoTime() - deadline < 0) {
                small.add(lone(limits.pages()));
                large.add(lone(largePages));
                rounds++;
            }
            return new Outcome(rounds, metrics("munmap_ns", small.toMetric("ns"), "munmap_large_ns", large.toMetric("ns")));
        });
    }

    /** One munmap of {@code pages} freshly written pages, in ns. */
    private long lone(int pages) {
        Mapping m = os.map(pages * os.pageSize(), Protection.READ_WRITE);
        try {
            m.touchPages(0, pages);
            long t0 = System.nanoTime();
            os.unmap(m);
            return System.nanoTime() - t0;
        } finally {
            m.close();
        }
    }

    private Workload munmapRounds(int threads, BenchLimits limits) {
        return (crew, deadline) -> {
            int pages = limits.pages();
            Samples munmap = new Samples();
            Samples[] access = Samples.perThread(threads);
            int rounds = 0;
            while (rounds < limits.iterations() && System.nanoTime() - deadline < 0) {
                Mapping m = os.map(pages * os.pageSize(), Protection.READ_WRITE);
                try {
                    m.touchPages(0, pages);
                    if (threads > 0) {
                        crew.start(w -> {
                            long t0 = System.nanoTime();
                            m.readPages(0, pages);
                            access[w].add((System.nanoTime() - t0) / (double) pages);
                        });
                        crew.await();
                    }
                    long t0 = System.nanoTime();
                    os.unmap(m);
                    munmap.add(System.nanoTime() - t0);
                } finally {
                    m.close();
                }
                rounds++;
            }
            if (threads == 0) {
                return new Outcome(rounds, Map.of("munmap_ns", munmap.toMetric("ns")));
            }
            return new Outcome(rounds, metrics("munmap_ns", munmap.toMetric("ns"),
                    "access_ns", Samples.merge(access).toMetric("ns")));
        };
    }

    /**
     * Remote threads ("victims") read a shared mapping once, then run fixed chunks of
     * private work ({@code victim_ms} per chunk, {@code iterations} chunks each) while the
     * initiator flips the mapping read-only and back ({@code mprotect_ns} per mprotect).
     * Every flip flushes the victims' CPUs; the victims' chunk time shows what that costs them.
     */
    public HostBenchResult mprotectNoise(int threads, int[] cpus, BenchLimits limits) {
        requireRemoteThreads("mprotect-noise", threads);
        return run("mprotect-noise", threads, cpus, limits, (crew, deadline) -> {
            int pages = limits.pages();
            Samples mprotect = new Samples();
            Samples[] victim = Samples.perThread(threads);
            long[] sink = new long[threads];
            int flips = 0;
            try (Mapping m = os.map(pages * os.pageSize(), Protection.READ_WRITE)) {
                m.touchPages(0, pages);
                crew.start(w -> {
                    m.readPages(0, pages);
                    long[] scratch = new long[VICTIM_SCRATCH];
                    for (int c = 0; c < limits.iterations() && System.nanoTime() - deadline < 0; c++) {
                        long t0 = System.nanoTime();
                        sink[w] ^= victimWork(scratch, c);
                        victim[w].add((System.nanoTime() - t0) / 1e6);
                    }
                });
                while (!crew.finished() && System.nanoTime() - deadline < 0) {
                    long t0 = System.nanoTime();
                    os.protect(m, 0, m.byteSize(), Protection.READ);
                    os.protect(m, 0, m.byteSize(), Protection.READ_WRITE);
                    mprotect.add((System.nanoTime() - t0) / 2.0);
                    flips++;
                }
                crew.await();
            }
            return new Outcome(flips, metrics("victim_ms", Samples.merge(victim).toMetric("ms"),
                    "mprotect_ns", mprotect.toMetric("ns")));
        });
    }

    /**
     * Per round: the remote threads read the mapping, then the initiator writes every page
     * and drops them all with madvise(MADV_DONTNEED), timed together ({@code madvise_touch_ns},
     * and its inverse {@code loops_per_s}). Each DONTNEED zaps the PTEs and flushes the
     * remote CPUs; the next round faults fresh zero-filled pages in.
     */
    public HostBenchResult madviseTouch(int threads, int[] cpus, BenchLimits limits) {
        requireRemoteThreads("madvise-touch", threads);
        return run("madvise-touch", threads, cpus, limits, (crew, deadline) -> {
            int pages = limits.pages();
            Samples loop = new Samples();
            Samples rate = new Samples();
            int rounds = 0;
            try (Mapping m = os.map(pages * os.pageSize(), Protection.READ_WRITE)) {
                while (rounds < limits.iterations() && System.nanoTime() - deadline < 0) {
                    crew.start(w -> m.readPages(0, pages));
                    crew.await();
                    long t0 = System.nanoTime();
                    m.touchPages(0, pages);
                    os.advise(m, 0, m.byteSize(), Advice.DONTNEED);
                    long dt = Math.max(1, System.nanoTime() - t0);
                    loop.add(dt);
                    rate.add(1e9 / dt);
                    rounds++;
                }
            }
            return new Outcome(rounds, metrics("madvise_touch_ns", loop.toMetric("ns"),
                    "loops_per_s", rate.toMetric("1/s")));
        });
    }

    /**
     * First-touch faults on {@code cpu} alone: per round, map {@code limits.pages()} pages and write
     * each once ({@code fault_ns}, per page): a minor anonymous fault that allocates and zeroes a
     * page and installs its PTE (do_anonymous_page()), entry and exit included.
     */
    public HostBenchResult firstTouch(int cpu, BenchLimits limits) {
        return run("first-touch", 0, new int[] {cpu}, limits, (crew, deadline) -> {
            int pages = limits.pages();
            Samples fault = new Samples();
            int rounds = 0;
            while (rounds < limits.iterations() && System.nanoTime() - deadline < 0) {
                try (Mapping m = os.map(pages * os.pageSize(), Protection.READ_WRITE)) {
                    long t0 = System.nanoTime();
                    m.touchPages(0, pages);
                    fault.add((System.nanoTime() - t0) / (double) pages);
                }
                rounds++;
            }
            return new Outcome(rounds, Map.of("fault_ns", fault.toMetric("ns")));
        });
    }

    /**
     * mprotect on {@code cpu} alone: a written mapping of {@code limits.pages()} pages flipped
     * read-only and back ({@code mprotect_ns} per call), the baseline of mprotect-noise's noise.
     */
    public HostBenchResult mprotectAlone(int cpu, BenchLimits limits) {
        return run("mprotect-alone", 0, new int[] {cpu}, limits, (crew, deadline) -> {
            Samples mprotect = new Samples();
            int flips = 0;
            try (Mapping m = os.map(limits.pages() * os.pageSize(), Protection.READ_WRITE)) {
                m.touchPages(0, limits.pages());
                while (flips < limits.iterations() && System.nanoTime() - deadline < 0) {
                    long t0 = System.nanoTime();
                    os.protect(m, 0, m.byteSize(), Protection.READ);
                    os.protect(m, 0, m.byteSize(), Protection.READ_WRITE);
                    mprotect.add((System.nanoTime() - t0) / 2.0);
                    flips++;
                }
            }
            return new Outcome(flips, Map.of("mprotect_ns", mprotect.toMetric("ns")));
        });
    }

    /**
     * A cache line moved between the initiator's CPU and {@code cpus[1]}: two threads take turns
     * incrementing one counter, each waiting for the other's write ({@code line_ns}: one transfer,
     * half a round trip, per batch of 1000 round trips).
     */
    public HostBenchResult lineTransfer(int[] cpus, BenchLimits limits) {
        requireRemoteThreads("line-transfer", cpus.length - 1);
        java.util.concurrent.atomic.AtomicLong line = new java.util.concurrent.atomic.AtomicLong();
        int batch = 1000;
        return run("line-transfer", 1, cpus, limits, (crew, deadline) -> {
            Samples transfer = new Samples();
            int batches = 0;
            crew.start(w -> {
                // The partner: answers every odd value with the next even one until told to stop (-1).
                for (long v; (v = line.get()) >= 0; ) {
                    if ((v & 1) == 1) {
                        line.compareAndSet(v, v + 1);
                    } else {
                        Thread.onSpinWait();
                    }
                }
            });
            try {
                while (batches < limits.iterations() && System.nanoTime() - deadline < 0) {
                    long t0 = System.nanoTime();
                    int done = 0;
                    for (; done < batch && System.nanoTime() - deadline < 0; done++) {
                        long v = line.incrementAndGet(); // even -> odd: the partner's turn
                        while (line.get() == v) {
                            Thread.onSpinWait();
                        }
                    }
                    if (done == batch) {
                        transfer.add((System.nanoTime() - t0) / (2.0 * batch));
                    }
                    batches++;
                }
            } finally {
                line.set(-1);
            }
            crew.await();
            return new Outcome(batches, Map.of("line_ns", transfer.toMetric("ns")));
        });
    }

    /**
     * The cost of one getpid() through this backend: the cheapest real syscall, so what
     * is left is the FFM or JNA call overhead plus the kernel entry and exit (which a PVM
     * guest pays through the host). Batches of 1000 calls after a warm-up; ns per call.
     */
    public Metric getpidCost(int calls) {
        if (calls < 1) {
            throw new IllegalArgumentException("calls must be positive: " + calls);
        }
        int batch = 1000;
        long pid = 0;
        for (int i = 0; i < 20_000; i++) { // warm-up: let the JIT compile the call path
            pid += os.getpid();
        }
        Samples perCall = new Samples();
        for (int done = 0; done < calls; done += batch) {
            int n = Math.min(batch, calls - done);
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                pid += os.getpid();
            }
            perCall.add((System.nanoTime() - t0) / (double) n);
        }
        if (pid == 0) {
            throw new IllegalStateException("getpid returned 0"); // keeps the calls observable
        }
        return perCall.toMetric("ns");
    }

    record Outcome(int iterations, Map<String, Metric> metrics) {}

    @FunctionalInterface
    interface Workload {
        Outcome run(PinnedCrew crew, long deadline);
    }

    HostBenchResult run(String benchmark, int threads, int[] cpus, BenchLimits limits, Workload workload) {
        return run(benchmark, threads, threads, cpus, limits, workload);
    }

    /**
     * Runs {@code workload} with a crew of {@code crewThreads} beside the initiator; the result
     * says {@code threads} (a twin's initiator is one of its workload's threads).
     */
    HostBenchResult run(String benchmark, int crewThreads, int threads, int[] cpus, BenchLimits limits, Workload workload) {
        Objects.requireNonNull(limits, "limits");
        if (cpus == null || cpus.length == 0) {
            throw new IllegalArgumentException(benchmark + " needs at least one CPU");
        }
        int[] crewCpus = crewCpus(crewThreads, cpus);
        TlbCounters before = probe.tlbCounters();
        long start = System.nanoTime();
        long deadline = start + limits.maxRun().toNanos();
        Outcome outcome = PinnedCrew.callPinned(os, cpus[0], () -> {
            try (PinnedCrew crew = new PinnedCrew(os, crewCpus, deadline + GRACE_NANOS)) {
                return workload.run(crew, deadline);
            }
        });
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        TlbCounters after = probe.tlbCounters();
        return new HostBenchResult(benchmark, os.name(), threads, Arrays.stream(cpus).boxed().toList(),
                outcome.iterations(), elapsed, outcome.metrics(), after.deltaSince(before), after.absentVmstat());
    }

    /** Where the remote threads run: thread i on {@code cpus[(i + 1) % cpus.length]}, the initiator on cpus[0]. */
    static int[] crewCpus(int threads, int[] cpus) {
        int[] crew = new int[threads];
        Arrays.setAll(crew, i -> cpus[(i + 1) % cpus.length]);
        return crew;
    }

    private static void requireRemoteThreads(String benchmark, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException(benchmark + " needs at least one remote thread: " + threads);
        }
    }

    static Map<String, Metric> metrics(String name1, Metric m1, String name2, Metric m2) {
        Map<String, Metric> m = new LinkedHashMap<>();
        m.put(name1, m1);
        m.put(name2, m2);
        return m;
    }

    /** Private work with a data-dependent walk over {@code scratch}; returns a value so it is not dead code. */
    private static long victimWork(long[] scratch, long seed) {
        long x = seed * 0x9E3779B97F4A7C15L + 1;
        for (int k = 0; k < VICTIM_STEPS; k++) {
            int i = (int) (x >>> 40) & (scratch.length - 1);
            scratch[i] += x;
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }
}
