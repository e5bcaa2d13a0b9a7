package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.smp.Topology;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The shape of will-it-scale's tlb_flush2 (threads mode), the flush-heavy test behind the
 * INVLPGB series' CPU-share figure in FACTS.md: threads of one process each own a private
 * region and loop over madvise(MADV_DONTNEED) of it and touching every page again; each madvise
 * zaps the PTEs and flushes on every CPU the process runs on. Metric {@code loops_per_s}: loop
 * iterations of all threads per second. Default machine: 36 cores.
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
        Mm mm = guest.newMm();
        long len = (long) pages * PhysMem.PAGE_SIZE;
        Finish finish = new Finish();
        long[] loops = new long[1];
        int cpus = guest.cpus().length;
        for (int t = 0; t < threads; t++) {
            long base = mm.getUnmappedArea(len);
            mm.insertVma(base, base + len, true, false);
            // will-it-scale's main.c binds task i to a core (hwloc's HWLOC_OBJ_CORE cpuset, both SMT
            // threads, through pthread_attr_setaffinity_np): it may move between the core's siblings only.
            java.util.BitSet core = new java.util.BitSet(cpus);
            for (int s : guest.topology().siblingsOf(t % cpus)) {
                core.set(s);
            }
            guest.spawn("tlb_flush2/" + t, mm, t % cpus, core, finish.track(new Loop(mm, base, pages, ops, loops)));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("loops_per_s", new Metric(loops[0] / finish.elapsedS(), "1/s", true));
            return m;
        };
    }

    /** testcase(): touch every page, madvise(MADV_DONTNEED) the region; {@code ops} times. */
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
