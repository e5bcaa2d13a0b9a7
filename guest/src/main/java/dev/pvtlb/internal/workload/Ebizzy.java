package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.model.ModelException;
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
 * The shape of ebizzy, named in the LKML thread "x86/hyper-v: Use hypercall for remote TLB flush",
 * August 2017 as a standard test of paravirt flushing: threads of one process repeatedly allocate a
 * chunk (mmap), fill it, search it, and free it (munmap), so every free shoots down the TLBs of all
 * CPUs running the other threads. A VM workload: 64 vCPUs, run with a virtualized backend on 64
 * pCPUs with one to three such VMs at once ({@code --backend kvm --set vms=2}), where the flush's
 * cost depends on whether its targets' vCPUs are running. Metric {@code records_per_s}: chunks
 * processed per second of the guest's virtual time.
 *
 * <p>{@code ops=auto} (the default): 4 chunks per thread on bare metal or alone on a host; with
 * other VMs on the host ({@code vms} &gt; 1) each thread goes on, like ebizzy's {@code -S seconds},
 * until {@code host_slices} host slices ({@code host.slice.ns}) of virtual time have passed, so
 * the host's scheduler is part of the run; {@code records_per_s} is then the records completed
 * within that time over that time (ebizzy's run of 10 s makes the last records' tail
 * negligible; here it would be as long as the run itself). {@code ops=timed} runs that long on
 * any host, one VM included, so that runs with one and with several VMs measure the same window
 * (ebizzy itself always runs for {@code -S} seconds).
 */
public final class Ebizzy implements Workload {
    @Override
    public String name() {
        return "ebizzy";
    }

    @Override
    public String description() {
        return "threads allocate, touch, search and free memory chunks (munmap churn) in a 64-vCPU VM";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "64");
        p.put("ops", "auto");
        p.put("host_slices", "20");
        p.put("chunk_pages", "32");
        p.put("searches", "256");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(Topology.flat(64));
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int threads = params.integer("threads", 1, 65536);
        String opsValue = params.values().get("ops").strip();
        boolean timed = opsValue.equals("timed") || opsValue.equals("auto") && guest.config().vms() > 1;
        if (!timed && !opsValue.equals("auto") && !opsValue.matches("-?[0-9]+")) {
            throw new ModelException("ebizzy: parameter ops must be auto, timed or an integer, got '" + opsValue + "'");
        }
        int ops = timed ? Integer.MAX_VALUE : opsValue.equals("auto") ? 4 : params.integer("ops", 1, 100_000_000);
        int slices = params.integer("host_slices", 1, 1_000_000);
        long untilNs = timed ? slices * guest.costs().hostSliceNs : Long.MAX_VALUE;
        int chunk = params.integer("chunk_pages", 1, 1 << 18);
        int searches = params.integer("searches", 0, 100_000_000);
        Mm mm = guest.newMm();
        Finish finish = new Finish();
        long[] records = new long[2]; // all records; those completed by untilNs
        int cpus = guest.cpus().length;
        for (int t = 0; t < threads; t++) {
            guest.spawn("ebizzy/" + t, mm, t % cpus, finish.track(new Worker(guest, mm, chunk, ops, untilNs, searches, records)));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            double perS = untilNs == Long.MAX_VALUE ? records[0] / finish.elapsedS() : records[1] / (untilNs / 1e9);
            m.put("records_per_s", new Metric(perS, "1/s", true));
            return m;
        };
    }

    /** alloc_mem / write_pattern / search_mem / free_mem of one ebizzy thread, {@code ops} times. */
    private static final class Worker implements Program {
        private final Kernel guest;
        private final long untilNs;
        private final Mm mm;
        private final int pages;
        private final long len;
        private final int searches;
        private final long[] records;
        private int left;
        private int phase;
        private long chunk;

        Worker(Kernel guest, Mm mm, int pages, int ops, long untilNs, int searches, long[] records) {
            this.guest = guest;
            this.untilNs = untilNs;
            this.mm = mm;
            this.pages = pages;
            this.len = (long) pages * PhysMem.PAGE_SIZE;
            this.left = ops;
            this.searches = searches;
            this.records = records;
        }

        @Override
        public Op next(Task task) {
            switch (phase) {
                case 0 -> {
                    if (left == 0 || guest.engine().now() >= untilNs) {
                        return null;
                    }
                    phase = 1;
                    return new Syscall(t -> new Mmap(mm, len, true, a -> chunk = a), null);
                }
                case 1 -> {
                    phase = 2;
                    return new Touch(chunk, pages, pages, 1.0, true, null);
                }
                case 2 -> {
                    phase = 3;
                    return new Touch(chunk, pages, Math.max(1, searches), 0.0, false, null);
                }
                default -> {
                    phase = 0;
                    left--;
                    records[0]++;
                    if (guest.engine().now() <= untilNs) {
                        records[1]++;
                    }
                    long c = chunk;
                    return new Syscall(t -> new ZapRange(mm, c, c + len, ZapRange.Kind.MUNMAP), null);
                }
            }
        }
    }
}
