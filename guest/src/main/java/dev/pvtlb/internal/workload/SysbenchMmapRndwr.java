package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.FlushTlbMmRange;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.InternalPath;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.Topology;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The shape of {@code sysbench fileio --file-test-mode=rndwr --file-io-mode=mmap
 * --file-fsync-mode=fdatasync} of Nadav Amit, "x86/tlb: Concurrent TLB flushes" v4, LKML 2019: T
 * threads of one process write random 4 KiB pages of a shared file mapping, and every
 * {@code fsync_freq} writes a thread calls fdatasync. Writeback write-protects each dirty page
 * (page_mkclean_one -> ptep_clear_flush -> flush_tlb_page), a one-page flush_tlb_mm_range on every
 * CPU of the mm, so each fdatasync is a train of shootdowns whose local and remote halves the
 * concurrent-flush series overlaps. Default machine: 2 sockets of 14 cores x 2 threads (56 logical
 * CPUs, "28+SMT"); up to 28 threads are pinned to socket 0.
 *
 * <p>{@code ops} (writes per thread) defaults to 3200, where the run is in its steady state: the
 * first pass over the file faults every page in, and with 56 threads (seed 1) the throughput of
 * 200 writes per thread is 5.05 M writes/s (mean of 3 runs), of 800, 3200 and 12800 3.82, 3.38 and
 * 3.41 M: 4x longer than the default changes it by under 1%.
 */
public final class SysbenchMmapRndwr implements Workload {
    @Override
    public boolean exploredInWindows() {
        return true; // a benchmark's long run: explore branches its flushes (ScheduleRunner.runWindows)
    }

    @Override
    public String name() {
        return "sysbench-mmap-rndwr";
    }

    @Override
    public String description() {
        return "threads write random pages of a shared file mapping; fdatasync write-protects dirty pages (one flush each)";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "8");
        p.put("ops", "3200");
        p.put("pages", "1024");
        p.put("fsync_freq", "100");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(new Topology(2, 14, 2));
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int threads = params.integer("threads", 1, 65536);
        int ops = params.integer("ops", 1, 100_000_000);
        int pages = params.integer("pages", 1, 1 << 20);
        int fsyncFreq = params.integer("fsync_freq", 1, 100_000_000);
        Mm mm = guest.newMm();
        long len = (long) pages * PhysMem.PAGE_SIZE;
        long base = mm.getUnmappedArea(len);
        // mmap(MAP_SHARED) of the test file: one shared, writable VMA.
        mm.insertVma(base, base + len, true, true);
        Finish finish = new Finish();
        long[] writes = new long[1];
        for (int t = 0; t < threads; t++) {
            int cpu = Pinning.socketFirst(guest.topology(), t, threads);
            guest.spawn("sysbench/" + t, mm, cpu, finish.track(new Writer(mm, base, pages, ops, fsyncFreq, writes)));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("throughput", new Metric(writes[0] / finish.elapsedS(), "writes/s", true));
            return m;
        };
    }

    /** One sysbench thread: bursts of random page writes, each burst followed by fdatasync. */
    private static final class Writer implements Program {
        private final Mm mm;
        private final long base;
        private final int pages;
        private final long[] writes;
        private final int fsyncFreq;
        private int left;
        private boolean sync;

        Writer(Mm mm, long base, int pages, int ops, int fsyncFreq, long[] writes) {
            this.mm = mm;
            this.base = base;
            this.pages = pages;
            this.left = ops;
            this.fsyncFreq = fsyncFreq;
            this.writes = writes;
        }

        @Override
        public Op next(Task task) {
            if (sync) {
                sync = false;
                return new Syscall(t -> new Fdatasync(mm, base, base + (long) pages * PhysMem.PAGE_SIZE), null);
            }
            if (left == 0) {
                return null;
            }
            int n = Math.min(left, fsyncFreq);
            left -= n;
            writes[0] += n;
            sync = true;
            return new Touch(base, pages, n, 1.0, false, null);
        }
    }

    /**
     * fdatasync() on the mapped file, reduced to what TLBs see: write_cache_pages() finds each
     * dirty page and clear_page_dirty_for_io() -> page_mkclean_one() write-protects and cleans
     * its PTE with ptep_clear_flush(), which flushes that one page on every CPU of the mm
     * (flush_tlb_page -> flush_tlb_mm_range). The next write to the page takes a
     * write-protect fault (do_wp_page) that makes it writable and dirty again.
     */
    static final class Fdatasync extends InternalPath {
        private final Mm mm;
        private final long end;
        private long va;
        private long[] pending;

        Fdatasync(Mm mm, long start, long end) {
            this.mm = mm;
            this.va = start;
            this.end = end;
        }

        @Override
        public long step(KernelCpu cpu) {
            Kernel g = cpu.kernel();
            long cost = 0;
            if (pc == 0) {
                cost += g.costs().syscallNs;
                pc = 1;
            } else if (pending != null) {
                // flush_tlb_page() returned: the page is clean everywhere.
                mm.endFlushPending(pending);
                pending = null;
                va += PhysMem.PAGE_SIZE;
            }
            // The page cache's dirty tag finds the next dirty page without visiting clean ones.
            for (; va < end; va += PhysMem.PAGE_SIZE) {
                long pte = g.pageTables().get(mm.pgd(), va);
                if (Pte.present(pte) && (pte & Pte.DIRTY) != 0) {
                    pending = mm.beginFlushPending(va, va + PhysMem.PAGE_SIZE);
                    g.pageTables().set(mm.pgd(), va, pte & ~(Pte.RW | Pte.DIRTY));
                    cpu.call(new FlushTlbMmRange(mm, va, va + PhysMem.PAGE_SIZE, PhysMem.PAGE_SHIFT, false));
                    return cost + g.costs().pteOpNs;
                }
            }
            cpu.ret();
            return cost;
        }

        @Override
        public String name() {
            return "fdatasync";
        }
    }
}
