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
 * <p>{@code shape=shared} runs the program of {@code pvtlb host bench munmap-storm} instead: per
 * round one initiator (thread 0) maps a region, writes every page and waits while the other threads
 * read every page of it ({@code access_ns}), then unmaps it ({@code munmap_ns}) while they spin for
 * the next round. Every CPU in the shootdown then holds translations of the range, and the next
 * round's region lands at the same address, so a translation a broken flush left behind is used:
 * the shape for finding flush bugs with {@code pvtlb explore} ({@code workset} and
 * {@code accesses} are not used). {@code wait} is what the readers do between rounds: {@code spin}
 * (the host benchmark's crew: they stay in the mm, so every shootdown reaches them) or
 * {@code sleep} (they block, as on a futex, and their CPUs idle in lazy TLB mode: the CPUs a flush
 * may skip, and whose paging-structure caches still point at the tables the munmap frees), or
 * {@code gup} (they keep pinning the last region with get_user_pages_fast, as a thread doing
 * O_DIRECT I/O from a buffer another thread unmaps: a lockless walk racing the table free).
 */
public final class MunmapStorm implements Workload {
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
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(new Topology(1, 4, 2));
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
        String wait = params.values().get("wait").strip();
        if (!wait.equals("spin") && !wait.equals("sleep") && !wait.equals("gup")) {
            throw new dev.pvtlb.model.ModelException(name() + ": parameter wait must be spin, sleep or gup, got '" + wait + "'");
        }
        if (shape.equals("shared")) {
            int cpus = guest.cpus().length;
            if (threads < 2 || threads > cpus || processes != 1) {
                // The readers spin between rounds, one per CPU, as the host benchmark's threads do.
                throw new dev.pvtlb.model.ModelException(String.format(
                        "%s: shape=shared needs processes=1 and 2 <= threads <= %d CPUs, got threads=%d processes=%d",
                        name(), cpus, threads, processes));
            }
            return SharedRounds.setUp(guest, threads, pages, ops, wait);
        } else if (!shape.equals("private")) {
            throw new dev.pvtlb.model.ModelException(name() + ": parameter shape must be private or shared, got '" + shape + "'");
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
            guest.spawn("munmap-storm/" + t, mm, t % cpus, new Loop(mm, pages, ops, mine, workset, accesses, munmap, access));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("munmap_ns", Metric.latency(munmap));
            m.put("access_ns", Metric.latency(access));
            return m;
        };
    }

    /** One thread: mmap, touch, work, munmap; {@code ops} times. */
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

        Loop(Mm mm, int pages, int ops, long wsBase, int workset, int accesses, LatencyRecorder munmap, LatencyRecorder access) {
            this.mm = mm;
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

    /** shape=shared: one initiator's region per round, read by every other thread before its munmap. */
    private static final class SharedRounds {
        /** How often a blocked reader looks for the next round: its futex wake-up, modelled as a poll. */
        static final long SLEEP_POLL_NS = 10_000;
        private final Mm mm;
        private final boolean sleep;
        private final boolean gup;
        private final int pages;
        private final int ops;
        private final int readers;
        private final LatencyRecorder munmap = new LatencyRecorder();
        private final LatencyRecorder access = new LatencyRecorder();
        /** Rounds whose region is mapped and written (readers may read it). */
        private int opened;
        /** Readers that finished reading the current round's region. */
        private int readersDone;
        private long region;

        private SharedRounds(Mm mm, int pages, int ops, int readers, String wait) {
            this.mm = mm;
            this.sleep = wait.equals("sleep");
            this.gup = wait.equals("gup");
            this.pages = pages;
            this.ops = ops;
            this.readers = readers;
        }

        static Supplier<Map<String, Metric>> setUp(Kernel guest, int threads, int pages, int ops, String wait) {
            SharedRounds r = new SharedRounds(guest.newMm(), pages, ops, threads - 1, wait);
            int cpus = guest.cpus().length;
            guest.spawn("munmap-storm/0", r.mm, 0, r.initiator());
            for (int t = 1; t < threads; t++) {
                guest.spawn("munmap-storm/" + t, r.mm, t % cpus, r.reader());
            }
            return () -> {
                Map<String, Metric> m = new LinkedHashMap<>();
                m.put("munmap_ns", Metric.latency(r.munmap));
                m.put("access_ns", Metric.latency(r.access));
                return m;
            };
        }

        /** mmap, write every page, open the round, wait for the readers, munmap; {@code ops} times. */
        private Program initiator() {
            long len = (long) pages * PhysMem.PAGE_SIZE;
            int[] loop = {0};
            int[] phase = {0};
            return task -> {
                if (loop[0] == ops) {
                    return null;
                }
                switch (phase[0]++) {
                    case 0:
                        return new Syscall(t -> new Mmap(mm, len, true, a -> region = a), null);
                    case 1:
                        return new Touch(region, pages, pages, 1.0, true, null);
                    case 2:
                        return (cpu, t) -> {
                            readersDone = 0;
                            opened++;
                            t.opDone();
                            return 1;
                        };
                    case 3:
                        return (cpu, t) -> {
                            if (readersDone == readers) {
                                t.opDone();
                                return 1;
                            }
                            return Spin.STEP_NS;
                        };
                    default:
                        phase[0] = 0;
                        loop[0]++;
                        long r = region;
                        return new Syscall(t -> new ZapRange(mm, r, r + len, ZapRange.Kind.MUNMAP), munmap);
                }
            };
        }

        /** Wait for the next round, read every page of its region, report; {@code ops} times. */
        private Program reader() {
            int[] seen = {0};
            int[] phase = {0};
            return task -> {
                switch (phase[0]) {
                    case 0:
                        if (seen[0] == ops) {
                            return null;
                        }
                        phase[0] = 1;
                        return (cpu, t) -> {
                            if (opened > seen[0]) {
                                t.opDone();
                                return 1;
                            }
                            if (sleep) {
                                // Blocked: its CPU idles, lazy on the mm; then it looks again.
                                phase[0] = 0;
                                t.opDone();
                                t.sleep(SLEEP_POLL_NS);
                                return 0;
                            }
                            if (gup && region != 0) {
                                // get_user_pages_fast() of the region it last read (an O_DIRECT write
                                // from it), racing the next munmap; a failed pin is not an error.
                                cpu.call(new dev.pvtlb.internal.kernel.GupFast(mm, region, pages, pte -> { }));
                                return 1;
                            }
                            return Spin.STEP_NS; // the host crew spins between rounds
                        };
                    case 1:
                        phase[0] = 2;
                        seen[0]++;
                        return new Touch(region, pages, pages, 0.0, true, access);
                    default:
                        phase[0] = 0;
                        return (cpu, t) -> {
                            readersDone++;
                            t.opDone();
                            return 1;
                        };
                }
            };
        }
    }
}
