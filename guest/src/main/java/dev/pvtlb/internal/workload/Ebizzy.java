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
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.smp.Topology;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * ebizzy 0.3 (Valerie Henson; the copy in LTP, utils/benchmark/ebizzy-0.3/ebizzy.c), named in the
 * LKML thread "x86/hyper-v: Use hypercall for remote TLB flush", August 2017, and run as
 * {@code ebizzy -M} by the KVM boost commit d73eb57b80b9. Its main thread allocates {@code chunks}
 * chunks and writes a pattern into them before the threads start; each thread then loops on one
 * record of {@code search_mem()}: allocate a copy buffer of the chunk's size, memcpy a chunk into
 * it, bsearch the copy for a key, free the copy. ebizzy itself takes no lock: what the record
 * costs beyond the copy is the kernel's, and that is what the model runs:
 *
 * <ul>
 *   <li>{@code alloc=heap} (the default; {@code -M}, which sets {@code mallopt(M_MMAP_MAX, 0)}):
 *       malloc serves the buffer from the thread's arena heap, so the copy's first write of each
 *       page faults a zeroed page in (mmap_lock read), and free() trims the top of the heap
 *       because it exceeds M_TRIM_THRESHOLD (128 KiB, never raised while no mmapped chunk is
 *       freed): glibc's {@code heap_trim()} -> {@code shrink_heap()} calls
 *       {@code madvise(MADV_DONTNEED)} on it (mmap_lock read), which frees the pages and flushes
 *       every CPU running the process. No writer takes mmap_lock in the loop.</li>
 *   <li>{@code alloc=mmap} ({@code -m}): the buffer is an mmap() and the free a munmap(), each a
 *       writer of mmap_lock.</li>
 * </ul>
 *
 * The memcpy is one write (the dst page) and one read (the chunk's page) per page through the
 * TLB, plus the copy of the page's 64 lines at the rate a streaming copy reaches when the
 * source comes from the LLC: {@code line.fill_buffers} misses in flight per LLC latency (a
 * single thread's bandwidth is bounded by its outstanding L1D misses, John D. McCalpin,
 * "Single-Threaded memory performance for dual socket Xeon E5-* systems"). The bsearch reads
 * log2(records) random records of the copy. ebizzy 0.3's {@code rand_num()} multiplies its
 * state of 0, so every record copies chunk 0 and searches for key 0: one chunk is read by every
 * thread, and it is the only one the model maps.
 *
 * <p>A VM workload: 64 vCPUs, run with a virtualized backend on 64 pCPUs with one to three such
 * VMs at once ({@code --backend kvm --set vms=2}), where the flush's cost depends on whether its
 * targets' vCPUs are running. {@code threads=auto} (the default) is ebizzy's own default, two
 * threads per online CPU ("threads = 2 * sysconf(_SC_NPROCESSORS_ONLN)", read_options()): a vCPU
 * whose thread sleeps on a lock runs its other thread instead of halting, and the two share the
 * vCPU by the guest scheduler's slice (taken between records).
 * Metric {@code records_per_s}: records completed per second of the guest's virtual time.
 *
 * <p>{@code ops=auto} (the default): 4 records per thread on bare metal or alone on a host; with
 * other VMs on the host ({@code vms} &gt; 1) each thread goes on, like ebizzy's {@code -S seconds},
 * until {@code host_slices} host slices of virtual time have passed (the slice the host's
 * scheduler gives one of two vCPU threads sharing a pCPU: {@code host.slice.ns} under EEVDF, 12 ms
 * under {@code host.scheduler=cfs} on 8 or more pCPUs), so the host's scheduler is part of the
 * run; {@code records_per_s} is then the records completed
 * within that time over that time, and the run ends there (ebizzy's run of 10 s makes the last
 * records' tail negligible; here it would be as long as the run itself, and under a collapse
 * longer: {@code Engine.endRun}). {@code ops=timed} runs that long on
 * any host, one VM included, so that runs with one and with several VMs measure the same window
 * (ebizzy itself always runs for {@code -S} seconds). {@code warmup_us} (0 by default; only with a
 * timed run) leaves that much virtual time out before the window: at the start every VM's vCPUs
 * run their first host slice side by side with nothing descheduled yet, a burst that ebizzy's 10 s
 * make negligible and a window of a few host slices would not.
 */
public final class Ebizzy implements Workload {
    /** ebizzy's record_t: a size_t. */
    private static final int RECORD_BYTES = 8;
    private static final long LINES_PER_PAGE = PhysMem.PAGE_SIZE / 64;

    @Override
    public boolean exploredInWindows() {
        return true; // a benchmark's long run: explore branches its flushes (ScheduleRunner.runWindows)
    }

    @Override
    public String name() {
        return "ebizzy";
    }

    @Override
    public String description() {
        return "threads copy a chunk into a malloc'd buffer, search and free it (madvise or munmap churn) in a 64-vCPU VM";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "auto");
        p.put("ops", "auto");
        p.put("host_slices", "20");
        p.put("warmup_us", "0");
        // ebizzy's default chunk_size: record_size * 64 * 1024 = 512 KiB.
        p.put("chunk_pages", "128");
        p.put("alloc", "heap");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(Topology.flat(64));
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        String threadsValue = params.wordOrInteger("threads", "auto (2 per CPU)", "auto");
        int threads = threadsValue.equals("auto") ? 2 * guest.cpus().length : params.integer("threads", 1, 65536);
        String opsValue = params.wordOrInteger("ops", "auto, timed", "auto", "timed");
        boolean timed = opsValue.equals("timed") || opsValue.equals("auto") && guest.config().vms() > 1;
        String alloc = params.values().get("alloc").strip();
        if (!alloc.equals("heap") && !alloc.equals("mmap")) {
            throw new ModelException("ebizzy: parameter alloc must be heap (ebizzy -M) or mmap (ebizzy -m), got '" + alloc + "'");
        }
        int ops = timed ? Integer.MAX_VALUE : opsValue.equals("auto") ? 4 : params.integer("ops", 1, 100_000_000);
        int slices = params.integer("host_slices", 1, 1_000_000);
        long warmupNs = 1000L * params.integer("warmup_us", 0, 100_000_000);
        if (warmupNs > 0 && !timed) {
            throw new ModelException("ebizzy: warmup_us needs a timed run (ops=timed, or ops=auto with other VMs on the host), got ops="
                    + opsValue);
        }
        // A host slice is the host scheduler's (CFS's, 12 ms on 8 or more pCPUs, is four times
        // EEVDF's 3 ms base slice); bare metal, which has none, counts the profile's.
        long sliceNs = guest.vcpuHost() != null ? guest.vcpuHost().sharedSliceNs() : guest.costs().hostSliceNs;
        long untilNs = timed ? warmupNs + slices * sliceNs : Long.MAX_VALUE;
        int pages = params.integer("chunk_pages", 1, 1 << 18);
        Mm mm = guest.newMm();
        // allocate() and write_pattern(), before the threads start: chunk 0, written.
        long len = (long) pages * PhysMem.PAGE_SIZE;
        long source = mm.getUnmappedArea(len);
        mm.insertVma(source, source + len, true, false);
        SetUpPages.write(guest, mm, source, pages);
        Shape shape = new Shape(mm, source, pages, alloc.equals("heap"), copyNs(guest.costs(), pages));
        Finish finish = new Finish();
        long[] records = new long[2]; // all records; those completed after the warm-up, by untilNs
        int cpus = guest.cpus().length;
        for (int t = 0; t < threads; t++) {
            // With alloc=heap, the thread's arena: new_heap() maps it at the thread's first malloc()
            // (a write of mmap_lock, once per thread), and the arena's malloc_state is written into
            // its first page. ebizzy runs 10 s, so that start is no part of its figure; the model
            // maps the arenas before the threads start, so that its far shorter run does not
            // measure the start either.
            long buffer = 0; // with alloc=mmap, each record's mmap gives it
            if (shape.heap()) {
                long heap = mm.getUnmappedArea(len + PhysMem.PAGE_SIZE);
                mm.insertVma(heap, heap + len + PhysMem.PAGE_SIZE, true, false);
                SetUpPages.write(guest, mm, heap);
                buffer = heap + PhysMem.PAGE_SIZE;
            }
            guest.spawn("ebizzy/" + t, mm, t % cpus, finish.track(new Worker(guest, shape, buffer, ops, warmupNs, untilNs, records)));
        }
        if (timed && !guest.engine().exploring()) {
            // The window's records are counted; the threads' last records after it are not, so the
            // run ends with the window (one ns after, so that a record completed at its last
            // instant is in). Under a collapse a thread's last record can take seconds of virtual time.
            guest.engine().at(untilNs + 1, e -> e.endRun());
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            double perS = untilNs == Long.MAX_VALUE ? records[0] / finish.elapsedS() : records[1] / ((untilNs - warmupNs) / 1e9);
            m.put("records_per_s", new Metric(perS, "1/s", true));
            return m;
        };
    }

    /**
     * The memcpy's data movement beyond the one access per page the model makes: every line of
     * the page, {@code line.fill_buffers} LLC misses in flight at a time.
     */
    static long copyNs(Costs c, int pages) {
        return c.streamNs((long) pages * LINES_PER_PAGE, c.llcPs);
    }

    /** bsearch() of the copy: the comparisons of a binary search over its records. */
    static int searchReads(int pages) {
        long records = (long) pages * PhysMem.PAGE_SIZE / RECORD_BYTES;
        return 64 - Long.numberOfLeadingZeros(records - 1);
    }

    /** What every thread's record shares: the source chunk, the buffer's size and how it is allocated. */
    private record Shape(Mm mm, long source, int pages, boolean heap, long copyNs) {
        long len() {
            return (long) pages * PhysMem.PAGE_SIZE;
        }
    }

    /** search_mem() of one ebizzy thread, {@code ops} records. */
    private static final class Worker implements Program {
        private final Kernel guest;
        private final Shape shape;
        private final long warmupNs;
        private final long untilNs;
        private final long[] records;
        private int left;
        private int phase;
        private long buffer;

        /** {@code buffer}: with alloc=heap, the copy's place in the thread's arena, after the page of its malloc_state. */
        Worker(Kernel guest, Shape shape, long buffer, int ops, long warmupNs, long untilNs, long[] records) {
            this.guest = guest;
            this.buffer = buffer;
            this.shape = shape;
            this.left = ops;
            this.warmupNs = warmupNs;
            this.untilNs = untilNs;
            this.records = records;
        }

        /** memcpy(copy, src, copy_size): the copy's pages are written (each first write faults a zeroed page in) ... */
        private Op copyWrites() {
            return new Touch(buffer, shape.pages(), shape.pages(), 1.0, true, null);
        }

        @Override
        public Op next(Task task) {
            Mm mm = shape.mm();
            int pages = shape.pages();
            switch (phase) {
                case 0 -> {
                    if (left == 0 || guest.engine().now() >= untilNs) {
                        return null;
                    }
                    if (!shape.heap()) {
                        phase = 1;
                        return new Syscall(t -> new Mmap(mm, shape.len(), true, a -> buffer = a), null);
                    }
                    phase = 2;
                    return copyWrites();
                }
                case 1 -> {
                    phase = 2;
                    return copyWrites();
                }
                case 2 -> {
                    phase = 3;
                    // ... from the chunk's pages ...
                    return new Touch(shape.source(), pages, pages, 0.0, true, null);
                }
                case 3 -> {
                    phase = 4;
                    // ... line by line.
                    return new Spin(shape.copyNs());
                }
                case 4 -> {
                    phase = 5;
                    return new Touch(buffer, pages, searchReads(pages), 0.0, false, null);
                }
                default -> {
                    phase = 0;
                    left--;
                    records[0]++;
                    long now = guest.engine().now();
                    if (now > warmupNs && now <= untilNs) {
                        records[1]++;
                    }
                    long b = buffer;
                    long end = b + shape.len();
                    ZapRange.Kind kind = shape.heap() ? ZapRange.Kind.MADV_DONTNEED : ZapRange.Kind.MUNMAP;
                    return new Syscall(t -> new ZapRange(mm, b, end, kind), null);
                }
            }
        }
    }
}
