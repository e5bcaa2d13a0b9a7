package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Mmap;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.smp.Topology;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The shape of the {@code munmap -n 64 -t 16} test of Alex Shi, "x86/tlb: just do tlb flush on one
 * of siblings of SMT", LKML 2012 (https://lkml.org/lkml/2012/5/17/59): threads of one process keep
 * touching their working memory while each, in a loop, maps a region of {@code pages} pages,
 * touches it, and unmaps it, so every munmap shoots down the TLBs of the CPUs running the other
 * threads. Default machine: a 4-core, 8-thread desktop. With {@code processes} above 1 the threads
 * are dealt to that many processes, each flushing only its own threads' CPUs (a flush storm across
 * processes).
 *
 * <p>{@code shape=shared} runs the program of {@code pvtlb host bench munmap-storm} instead (one
 * unmapper per round, readers holding translations of its region; {@code wait} says what the
 * readers do between rounds): {@link SharedRegionRounds}, the shape for finding flush bugs with
 * {@code pvtlb explore} ({@code workset}, {@code accesses} and {@code prefault} are not used).
 *
 * <p>{@code shape=munmap.c} runs the test program itself ({@link MunmapTestProgram}): one thread
 * unmaps {@code ops} mappings of {@code pages} pages while {@code threads} readers read their
 * {@code reads} random addresses of a shared {@code region}-page mapping; the shape of the
 * published SMT-dedup figures, its main thread on {@code mainCpu} ({@code workset}, {@code accesses},
 * {@code processes}, {@code wait} and {@code prefault} are not used).
 */
public final class MunmapStorm implements Workload {
    @Override
    public boolean exploredInWindows() {
        return true; // a benchmark's long run: explore branches its flushes (ScheduleRunner.runWindows)
    }

    @Override
    public String name() {
        return "munmap-storm";
    }

    @Override
    public String description() {
        return "threads of one process touch memory while each maps, touches and unmaps regions in a loop";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "16");
        p.put("processes", "1");
        p.put("pages", "64");
        p.put("ops", "50");
        p.put("workset", "128");
        p.put("accesses", "2000");
        p.put("shape", "private");
        p.put("wait", "spin");
        p.put("region", "262144");
        p.put("reads", "512");
        p.put("mainCpu", "0");
        p.put("prefault", "false");
        p.put("settle_us", "10000");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(new Topology(1, 4, 2));
        if (params.values().get("shape").strip().equals("munmap.c")) {
            b.memoryBytes(MunmapTestProgram.memoryBytes(params.integer("region", 1, 1 << 20), params.integer("pages", 1, 1 << 18)));
        }
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int threads = params.integer("threads", 1, 65536);
        int pages = params.integer("pages", 1, 1 << 18);
        int ops = params.integer("ops", 1, 100_000_000);
        int workset = params.integer("workset", 1, 1 << 18);
        int accesses = params.integer("accesses", 0, 100_000_000);
        int processes = params.integer("processes", 1, threads);
        String shape = params.values().get("shape").strip();
        boolean prefault = params.bool("prefault");
        SharedRegionRounds.Wait wait = SharedRegionRounds.Wait.of(name(), params.values().get("wait").strip());
        if (shape.equals("munmap.c")) {
            return MunmapTestProgram.setUp(guest, name(), threads, pages, params.integer("region", 1, 1 << 20),
                    params.integer("reads", 1, 1 << 20), ops, params.integer("mainCpu", 0, 65535),
                    params.integer("settle_us", 0, 10_000_000));
        }
        if (shape.equals("shared")) {
            int cpus = guest.cpus().length;
            if (threads < 2 || threads > cpus || processes != 1) {
                // The readers spin between rounds, one per CPU, as the host benchmark's threads do.
                throw new dev.pvtlb.model.ModelException(String.format(
                        "%s: shape=shared needs processes=1 and 2 <= threads <= %d CPUs, got threads=%d processes=%d",
                        name(), cpus, threads, processes));
            }
            return SharedRegionRounds.setUp(guest, threads, pages, ops, wait);
        } else if (!shape.equals("private")) {
            throw new dev.pvtlb.model.ModelException(name() + ": parameter shape must be private, shared or munmap.c, got '" + shape + "'");
        }
        // Threads are dealt round-robin to the processes; each process has its own mm.
        Mm[] mms = new Mm[processes];
        long[] wsBases = new long[processes];
        for (int p = 0; p < processes; p++) {
            mms[p] = guest.newMm();
            int mine = (threads - p + processes - 1) / processes;
            long wsLen = (long) workset * mine * PhysMem.PAGE_SIZE;
            wsBases[p] = mms[p].getUnmappedArea(wsLen);
            mms[p].insertVma(wsBases[p], wsBases[p] + wsLen, true, false);
        }
        LatencyRecorder munmap = new LatencyRecorder();
        LatencyRecorder access = new LatencyRecorder();
        int cpus = guest.cpus().length;
        for (int t = 0; t < threads; t++) {
            int p = t % processes;
            Mm mm = mms[p];
            long mine = wsBases[p] + (long) (t / processes) * workset * PhysMem.PAGE_SIZE;
            guest.spawn("munmap-storm/" + t, mm, t % cpus, new Loop(mm, pages, ops, mine, workset, accesses, prefault, munmap, access));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("munmap_ns", Metric.latency(munmap));
            m.put("access_ns", Metric.latency(access));
            return m;
        };
    }

    /**
     * One thread: mmap, touch, work, munmap; {@code ops} times. With {@code prefault=true} it first
     * writes every page of its working set once, as the host twin does ({@code WorkloadTwins}
     * touches the working set before its loop), so that no access of the loop faults or, with
     * zeroPage=on, copies the zero page.
     */
    private static final class Loop implements Program {
        private final Mm mm;
        private final long len;
        private final int pages;
        private final int ops;
        private final long wsBase;
        private final int workset;
        private final int accesses;
        private final LatencyRecorder munmap;
        private final LatencyRecorder access;
        private int loop;
        private int phase;
        private long region;

        Loop(Mm mm, int pages, int ops, long wsBase, int workset, int accesses, boolean prefault, LatencyRecorder munmap,
                LatencyRecorder access) {
            this.mm = mm;
            // With prefault the loop begins one phase early, writing the working set once.
            this.phase = prefault ? -1 : 0;
            this.pages = pages;
            this.len = (long) pages * PhysMem.PAGE_SIZE;
            this.ops = ops;
            this.wsBase = wsBase;
            this.workset = workset;
            this.accesses = accesses;
            this.munmap = munmap;
            this.access = access;
        }

        @Override
        public Op next(Task task) {
            if (loop == ops) {
                return null;
            }
            switch (phase++) {
                case -1:
                    return new Touch(wsBase, workset, workset, 1.0, true, null);
                case 0:
                    return new Syscall(t -> new Mmap(mm, len, true, a -> region = a), null);
                case 1:
                    return new Touch(region, pages, pages, 1.0, true, null);
                case 2:
                    return new Touch(wsBase, workset, accesses, 0.25, false, access);
                default:
                    phase = 0;
                    loop++;
                    long r = region;
                    return new Syscall(t -> new ZapRange(mm, r, r + len, ZapRange.Kind.MUNMAP), munmap);
            }
        }
    }
}
