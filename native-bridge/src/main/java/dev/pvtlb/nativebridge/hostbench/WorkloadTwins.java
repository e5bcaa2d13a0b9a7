package dev.pvtlb.nativebridge.hostbench;

import dev.pvtlb.nativebridge.Advice;
import dev.pvtlb.nativebridge.Mapping;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.Protection;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The emulated workloads' programs run on this host: the same threads, sizes and sequence as
 * the workload of the same name in the model (guest's internal.workload package), thread t
 * pinned to {@code cpus[t % cpus.length]} as the model places thread t on vCPU t mod vCPUs. The
 * initiator thread is thread 0, so no thread spins on a CPU another one works on.
 */
public final class WorkloadTwins {
    /** The workloads with a host twin, by the names {@code pvtlb host bench} takes. */
    public static final List<String> NAMES = List.of("munmap-storm", "mprotect-noise", "tlb-flush2", "madvise-touch");

    /** Victim runs before the measured ones, so that the JIT has compiled the victim's loop. */
    static final int WARM_UP_ROUNDS = 5;

    private final NativeOs os;
    private final HostBench bench;

    public WorkloadTwins(NativeOs os, HostBench bench) {
        this.os = Objects.requireNonNull(os, "os");
        this.bench = Objects.requireNonNull(bench, "bench");
    }

    /**
     * MunmapStorm's program (with prefault=true): each of {@code threads} threads writes its own
     * {@code workset}-page working set once, then maps {@code pages} pages, writes every page,
     * makes {@code accesses} accesses (one in four a write) over the working set, and unmaps the
     * region; {@code ops} times.
     * {@code munmap_ns}: every munmap of every thread.
     */
    public HostBenchResult munmapStorm(int threads, int[] cpus, int pages, int ops, int workset, int accesses, BenchLimits limits) {
        requireThreads(threads);
        Samples[] munmap = Samples.perThread(threads);
        return bench.run("munmap-storm", threads - 1, threads, cpus, limits, (crew, deadline) -> {
            ThreadBody body = w -> {
                try (Mapping ws = os.map(workset * os.pageSize(), Protection.READ_WRITE)) {
                    ws.touchPages(0, workset);
                    for (int op = 0; op < ops && System.nanoTime() - deadline < 0; op++) {
                        Mapping m = os.map(pages * os.pageSize(), Protection.READ_WRITE);
                        try {
                            m.touchPages(0, pages);
                            workingSet(ws, workset, accesses, op);
                            long t0 = System.nanoTime();
                            os.unmap(m);
                            munmap[w].add(System.nanoTime() - t0);
                        } finally {
                            m.close();
                        }
                    }
                }
            };
            Samples all = everyThread(crew, body, munmap);
            return new HostBench.Outcome(all.size(), Map.of("munmap_ns", all.toMetric("ns")));
        });
    }

    /**
     * TlbFlush2's program (will-it-scale tlb_flush2): each thread owns a {@code pages}-page
     * region and, {@code ops} times, writes every page and madvise(MADV_DONTNEED)s the region.
     * {@code loop_ns}: one loop of one thread; {@code loops_per_s}: every thread's loops over
     * the wall time of the run, the model's metric.
     */
    public HostBenchResult tlbFlush2(int threads, int[] cpus, int pages, int ops, BenchLimits limits) {
        requireThreads(threads);
        Samples[] loop = Samples.perThread(threads);
        return bench.run("tlb-flush2", threads - 1, threads, cpus, limits, (crew, deadline) -> {
            long start = System.nanoTime();
            Samples all = everyThread(crew, w -> {
                try (Mapping m = os.map(pages * os.pageSize(), Protection.READ_WRITE)) {
                    for (int op = 0; op < ops && System.nanoTime() - deadline < 0; op++) {
                        long t0 = System.nanoTime();
                        m.touchPages(0, pages);
                        os.advise(m, 0, m.byteSize(), Advice.DONTNEED);
                        loop[w].add(System.nanoTime() - t0);
                    }
                }
            }, loop);
            double seconds = (System.nanoTime() - start) / 1e9;
            Samples rate = new Samples();
            rate.add(all.size() / seconds);
            return new HostBench.Outcome(all.size(), HostBench.metrics("loop_ns", all.toMetric("ns"),
                    "loops_per_s", rate.toMetric("1/s")));
        });
    }

    /**
     * MadviseTouch's program, which is HostBench.madviseTouch's: {@code readers} threads read a
     * {@code pages}-page region, then the initiator writes every page and madvise(MADV_DONTNEED)s
     * them, timed together ({@code madvise_touch_ns}); {@code ops} rounds.
     */
    public HostBenchResult madviseTouch(int readers, int[] cpus, int pages, int ops, BenchLimits limits) {
        return bench.madviseTouch(readers, cpus, new BenchLimits(ops, pages, limits.maxRun()));
    }

    /**
     * MprotectNoise's program: a single-threaded victim on {@code cpus[0]} writes its
     * {@code workset} pages and then makes {@code ops} batches of {@code accesses} reads over them,
     * while another process on {@code cpus[1]} (cpus[0] with one CPU) flips {@code noisePages}
     * pages read-only and back ({@link MprotectLoop}). After {@value #WARM_UP_ROUNDS} rounds that
     * do not count, the victim runs {@code rounds} times alone and {@code rounds} times with the
     * noise, in turns; {@code victim_ms} and {@code victim_alone_ms}
     * are its elapsed times, as the model's victim_ms with noise=true and noise=false.
     * Two controls the model has no twin of, so that a flush's cost can be told from a busy
     * neighbour's: {@code victim_busy_ms} beside a process that only computes on the noise's CPU,
     * {@code victim_syscalls_ms} beside one that calls getpid(); {@code victim_reads_*_ms} are the
     * same four without the victim's first-touch faults (its reads only).
     */
    public HostBenchResult mprotectNoise(int[] cpus, int workset, int ops, int accesses, int noisePages, int rounds,
                                        BenchLimits limits) {
        if (rounds < 1) {
            throw new IllegalArgumentException("mprotect-noise needs at least one round: " + rounds);
        }
        return bench.run("mprotect-noise", 0, 1, cpus, limits, (crew, deadline) -> {
            // Alone, beside the mprotect noise, and beside the two controls, in turns, so that a
            // slow phase of the host hits all alike; per phase the whole victim and its reads alone.
            String[] modes = {"alone", "mprotect", "spin", "getpid"};
            Samples[] whole = {new Samples(), new Samples(), new Samples(), new Samples()};
            Samples[] reads = {new Samples(), new Samples(), new Samples(), new Samples()};
            Samples warmUp = new Samples();
            int noiseCpu = cpus[cpus.length > 1 ? 1 : 0];
            NoiseProcess[] noise = new NoiseProcess[modes.length];
            try {
                for (int i = 1; i < modes.length; i++) {
                    noise[i] = new NoiseProcess(os, noiseCpu, noisePages, modes[i]);
                }
                for (int r = 0; r < WARM_UP_ROUNDS; r++) {
                    victim(workset, ops, accesses, r, warmUp); // compiled before any round counts
                }
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < modes.length; i++) {
                        if (noise[i] != null) {
                            noise[i].flipping(true);
                        }
                        whole[i].add(victim(workset, ops, accesses, r, reads[i]) / 1e6);
                        if (noise[i] != null) {
                            noise[i].flipping(false);
                        }
                    }
                }
            } finally {
                for (NoiseProcess n : noise) {
                    if (n != null) {
                        n.close();
                    }
                }
            }
            Map<String, Metric> m = new java.util.LinkedHashMap<>();
            String[] names = {"victim_alone_ms", "victim_ms", "victim_busy_ms", "victim_syscalls_ms"};
            for (int i = 0; i < modes.length; i++) {
                m.put(names[i], whole[i].toMetric("ms"));
            }
            for (int i = 0; i < modes.length; i++) {
                m.put(names[i].replace("victim_", "victim_reads_"), reads[i].toMetric("ms"));
            }
            return new HostBench.Outcome(modes.length * rounds, m);
        });
    }

    /** The victim's whole program, in ns: populate, then the batches of reads. */
    private long victim(int workset, int ops, int accesses, long seed, Samples reads) {
        long t0 = System.nanoTime();
        long sum = 0;
        try (Mapping ws = os.map(workset * os.pageSize(), Protection.READ_WRITE)) {
            ws.touchPages(0, workset);
            long r0 = System.nanoTime();
            long x = seed * 0x9E3779B97F4A7C15L + 1;
            for (int op = 0; op < ops; op++) {
                for (int k = 0; k < accesses; k++) {
                    sum += ws.read((int) Long.remainderUnsigned(x >>> 16, workset));
                    x = x * 6364136223846793005L + 1442695040888963407L;
                }
            }
            reads.add((System.nanoTime() - r0) / 1e6);
        }
        long dt = System.nanoTime() - t0;
        return sum == Long.MIN_VALUE ? dt + 1 : dt; // keeps the reads observable
    }

    /** One thread's part of a twin: {@code w} is the thread's index, 0 the initiator. */
    @FunctionalInterface
    interface ThreadBody {
        void run(int w);
    }

    /** Thread 0 on the initiator, the others on the crew; returns every thread's samples merged. */
    private static Samples everyThread(PinnedCrew crew, ThreadBody body, Samples[] perThread) {
        crew.start(i -> body.run(i + 1));
        body.run(0);
        crew.await();
        return Samples.merge(perThread);
    }

    /** Touch's random accesses over a working set, one in four a write (the model's Touch(..., 0.25, ...)). */
    static long workingSet(Mapping ws, int pages, int accesses, long seed) {
        long x = seed * 0x9E3779B97F4A7C15L + 1;
        long sum = 0;
        for (int k = 0; k < accesses; k++) {
            int page = (int) Long.remainderUnsigned(x >>> 16, pages);
            if ((k & 3) == 0) {
                ws.write(page, (byte) k);
            } else {
                sum += ws.read(page);
            }
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return sum;
    }

    private static void requireThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("a workload twin needs at least one thread: " + threads);
        }
    }
}
