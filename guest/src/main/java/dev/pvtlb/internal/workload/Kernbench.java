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
import dev.pvtlb.stats.TimeCategory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The shape of kernbench as run in the LKML thread "x86/hyper-v: Use hypercall for remote TLB
 * flush", August 2017 (to see what RCU table freeing costs): a parallel build,
 * {@code make -j threads}, where each job is a short process that is forked, maps its memory,
 * faults it in (allocating page tables), computes, and exits (exit_mmap: unmap everything and
 * free its page tables through tlb_remove_table). Jobs are queued round robin on {@code threads} CPUs. Metrics:
 * {@code elapsed_s} (wall time of the build) and {@code system_s} (CPU time in the kernel:
 * syscalls, faults, flushes, switch_mm). Default host: 16 CPUs at full load; the thread also ran 6
 * CPUs and half load ({@code --set vcpus=6 --set threads=3}).
 */
public final class Kernbench implements Workload {
    @Override
    public boolean exploredInWindows() {
        return true; // a benchmark's long run: explore branches its flushes (ScheduleRunner.runWindows)
    }

    @Override
    public String name() {
        return "kernbench";
    }

    @Override
    public String description() {
        return "parallel build: short processes fork, map, fault, unmap and exit, allocating and freeing page tables";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "16");
        p.put("ops", "64");
        p.put("pages", "192");
        p.put("compute_us", "100");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(Topology.flat(16));
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int load = params.integer("threads", 1, 65536);
        int jobs = params.integer("ops", 1, 1_000_000);
        int pages = params.integer("pages", 1, 1 << 18);
        int computeUs = params.integer("compute_us", 0, 10_000_000);
        int cpus = guest.cpus().length;
        Finish finish = new Finish();
        for (int j = 0; j < jobs; j++) {
            // Every job is its own process (mm_alloc at fork); make -j N keeps N running.
            Mm mm = guest.newMm();
            guest.spawn("cc1/" + j, mm, (j % load) % cpus, finish.track(new Job(mm, pages, computeUs * 1000L)));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("elapsed_s", new Metric(finish.elapsedS(), "s", false));
            long sys = guest.cpuTime().total(TimeCategory.KERNEL) + guest.cpuTime().total(TimeCategory.FLUSH_HANDLER)
                    + guest.cpuTime().total(TimeCategory.IPI_WAIT) + guest.cpuTime().total(TimeCategory.LOCK_SPIN)
                    + guest.cpuTime().total(TimeCategory.SWITCH_MM);
            m.put("system_s", new Metric(sys / 1e9, "s", false));
            return m;
        };
    }

    /** One compiler process: fork, mmap, fault in, compute, exit_mmap. */
    private static final class Job implements Program {
        private final Mm mm;
        private final long len;
        private final int pages;
        private final long computeNs;
        private int phase;
        private long region;

        Job(Mm mm, int pages, long computeNs) {
            this.mm = mm;
            this.pages = pages;
            this.len = (long) pages * PhysMem.PAGE_SIZE;
            this.computeNs = computeNs;
        }

        @Override
        public Op next(Task task) {
            switch (phase++) {
                case 0:
                    // fork()/exec(): the new task and mm (dup_mm, copying VMAs) in the parent's syscall.
                    return new Syscall(t -> new KernelWork("kernel_clone", c -> c.syscallNs + c.vmaOpNs), null);
                case 1:
                    return new Syscall(t -> new Mmap(mm, len, true, a -> region = a), null);
                case 2:
                    return new Touch(region, pages, pages, 1.0, true, null);
                case 3:
                    return new Spin(Math.max(1, computeNs));
                case 4:
                    // exit_mmap(): unmap_vmas + free_pgtables, the tables going through tlb_remove_table.
                    long r = region;
                    return new Syscall(t -> new ZapRange(mm, r, r + len, ZapRange.Kind.MUNMAP), null);
                default:
                    return null;
            }
        }
    }
}
