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
 * will-it-scale's tlb_flush2 (threads mode), the flush-heavy test behind the INVLPGB series'
 * CPU-share figure in FACTS.md: threads of one process, each in its own private anonymous
 * mapping, madvise(MADV_DONTNEED) and touch it again in a loop; each madvise zaps PTEs and
 * flushes on every CPU the process runs on. Default machine: 36 cores.
 *
 * <p>{@code shape=tlb_flush2.c} runs the test program itself (will-it-scale tests/tlb_flush2.c,
 * github.com/antonblanchard/will-it-scale): each thread maps {@code pages} pages (the program's
 * MEMORYSIZE is 1 MiB, {@code pages=256}) and, page by page, writes the page, madvise()s that one
 * page away and reads it back (its assert: a read fault, the zero page with {@code zeroPage=on}),
 * one iteration each; after the last page it unmaps the mapping and maps a new one. So every
 * iteration is a fault that adds a page to the LRU-add vector and a one-page flush to every CPU
 * of the process, where the contention the INVLPGB series measured lies. {@code ops}: iterations
 * of each thread. Metric {@code loops_per_s}: iterations of all threads per second, the
 * program's count.
 *
 * <p>{@code shape=region} (the default, the model's shape before the program's) batches the
 * per-page madvise into one: each thread owns a {@code pages}-page region and, {@code ops}
 * times, writes every page and madvise()s the whole region; {@code loops_per_s} counts those
 * loops. {@code pvtlb host bench tlb-flush2} runs this shape on the host.
 */
public final class TlbFlush2 implements Workload {
    @Override
    public boolean exploredInWindows() {
        return true; // a benchmark's long run: explore branches its flushes (ScheduleRunner.runWindows)
    }

    @Override
    public String name() {
        return "tlb-flush2";
    }

    @Override
    public String description() {
        return "threads of one process madvise(DONTNEED) and touch private memory in a loop (will-it-scale)";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "36");
        p.put("ops", "4");
        p.put("pages", "64");
        p.put("shape", "region");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(Topology.flat(36));
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int threads = params.integer("threads", 1, 65536);
        int ops = params.integer("ops", 1, 100_000_000);
        int pages = params.integer("pages", 1, 1 << 18);
        String shape = params.values().get("shape").strip();
        if (!shape.equals("region") && !shape.equals(PROGRAM)) {
            throw new dev.pvtlb.model.ModelException(name() + ": parameter shape must be region or " + PROGRAM + ", got '" + shape + "'");
        }
        Mm mm = guest.newMm();
        long len = (long) pages * PhysMem.PAGE_SIZE;
        Finish finish = new Finish();
        long[] loops = new long[1];
        int cpus = guest.cpus().length;
        for (int t = 0; t < threads; t++) {
            Program program;
            if (shape.equals(PROGRAM)) {
                program = new Iterations(mm, pages, ops, loops);
            } else {
                long base = mm.getUnmappedArea(len);
                mm.insertVma(base, base + len, true, false);
                program = new Loop(mm, base, pages, ops, loops);
            }
            // will-it-scale's main.c binds task i to a core (hwloc's HWLOC_OBJ_CORE cpuset, both SMT
            // threads, through pthread_attr_setaffinity_np): it may move between the core's siblings only.
            java.util.BitSet core = new java.util.BitSet(cpus);
            for (int s : guest.topology().siblingsOf(t % cpus)) {
                core.set(s);
            }
            guest.spawn("tlb_flush2/" + t, mm, t % cpus, core, finish.track(program));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("loops_per_s", new Metric(loops[0] / finish.elapsedS(), "1/s", true));
            return m;
        };
    }

    /** The test program's file, and the shape that runs it. */
    private static final String PROGRAM = "tlb_flush2.c";

    /**
     * tests/tlb_flush2.c's testcase(): mmap() {@code pages} pages; for each page, write it,
     * madvise(MADV_DONTNEED) it, read it back, count an iteration; munmap(); again, until
     * {@code ops} iterations.
     */
    private static final class Iterations implements Program {
        private final Mm mm;
        private final int pages;
        private final long[] iterations;
        private final long len;
        private int left;
        /** 0: mmap(); 1: the page's write; 2: its madvise(); 3: its read; 4: munmap(). */
        private int phase;
        /** The last op was a page's read: its iteration ends when it returns. */
        private boolean read;
        private int page;
        private long region;

        Iterations(Mm mm, int pages, int ops, long[] iterations) {
            this.mm = mm;
            this.pages = pages;
            this.len = (long) pages * PhysMem.PAGE_SIZE;
            this.left = ops;
            this.iterations = iterations;
        }

        @Override
        public Op next(Task task) {
            if (read) {
                // The read has returned: the program's (*iteration)++ after its assert.
                read = false;
                iterations[0]++;
                if (--left == 0) {
                    return null;
                }
            }
            switch (phase) {
                case 0 -> {
                    phase = 1;
                    page = 0;
                    return new Syscall(t -> new Mmap(mm, len, true, a -> region = a), null);
                }
                case 1 -> {
                    phase = 2;
                    return new Touch(at(page), 1, 1, 1.0, true, null);
                }
                case 2 -> {
                    phase = 3;
                    long va = at(page);
                    return new Syscall(t -> new ZapRange(mm, va, va + PhysMem.PAGE_SIZE, ZapRange.Kind.MADV_DONTNEED), null);
                }
                case 3 -> {
                    read = true;
                    long va = at(page);
                    phase = ++page == pages ? 4 : 1;
                    return new Touch(va, 1, 1, 0.0, true, null);
                }
                default -> {
                    phase = 0;
                    long r = region;
                    return new Syscall(t -> new ZapRange(mm, r, r + len, ZapRange.Kind.MUNMAP), null);
                }
            }
        }

        private long at(int p) {
            return region + (long) p * PhysMem.PAGE_SIZE;
        }
    }

    /** testcase() of shape=region: touch every page, madvise(MADV_DONTNEED) the region; {@code ops} times. */
    private static final class Loop implements Program {
        private final Mm mm;
        private final long base;
        private final int pages;
        private final long[] loops;
        private int left;
        private boolean touched;

        Loop(Mm mm, long base, int pages, int ops, long[] loops) {
            this.mm = mm;
            this.base = base;
            this.pages = pages;
            this.left = ops;
            this.loops = loops;
        }

        @Override
        public Op next(Task task) {
            if (!touched) {
                if (left == 0) {
                    return null;
                }
                touched = true;
                return new Touch(base, pages, pages, 1.0, true, null);
            }
            touched = false;
            left--;
            loops[0]++;
            long end = base + (long) pages * PhysMem.PAGE_SIZE;
            return new Syscall(t -> new ZapRange(mm, base, end, ZapRange.Kind.MADV_DONTNEED), null);
        }
    }
}
