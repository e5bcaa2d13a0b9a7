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
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.internal.sim.SplitMix;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code sysbench fileio --file-test-mode=rndwr --file-io-mode=mmap --file-fsync-mode=fdatasync}
 * (sysbench 1.0, src/tests/fileio/sb_fileio.c), as Nadav Amit ran it for "x86/tlb: Concurrent TLB
 * flushes" v4 (LKML, 2019) on ext4 with DAX over emulated persistent memory, with
 * {@code --file-total-size=3G}: T threads of one process write random blocks of {@code files}
 * files (sysbench's --file-num, 128 by default), each mapped once MAP_SHARED. A write is a
 * memcpy() of one block (--file-block-size, 16 KiB: {@code block_pages} pages) to a random
 * block-aligned offset of a random file. The request generator is one for all threads
 * (file_get_rnd_request(), its counters global): after every {@code fsync_freq} writes
 * (--file-fsync-freq, 100) the next {@code files} requests, whichever threads ask for them, are
 * an fsync of each file in turn, in mmap mode msync() of the whole mapping, dirty or not.
 *
 * <p>On DAX the file's blocks are mapped directly: a write to a page that is not mapped, or that
 * an msync() cleaned, takes the filesystem's DAX write fault ({@code fault.dax.ns};
 * ext4_dax_huge_fault()), and msync() -> dax_writeback_mapping_range() write-protects and cleans
 * each dirty page's PTE with ptep_clear_flush() in dax_entry_mkclean(), which flushes that one page
 * on every CPU of the mm (flush_tlb_page -> flush_tlb_mm_range): so each msync is a train of
 * one-page shootdowns whose local and remote halves the concurrent-flush series overlaps. The
 * source ran with the pmem device's write cache disabled, so dax_flush() writes no cache lines
 * back. {@code dax=false} maps the files through the page cache instead: faults cost
 * {@code fault.ns}.
 *
 * <p>Default machine: 2 sockets of 14 cores x 2 threads (56 logical CPUs, "28+SMT"); up to 28
 * threads are pinned to socket 0.
 *
 * <p>Metric {@code throughput}, writes per second. {@code ops=timed} (the default) runs as sysbench
 * does (--time, 10 s by default): every thread writes until {@code warmup_us + time_us} of
 * simulated time have passed, and the writes completed in the last {@code time_us} count, so a
 * thread that shares its core with a busy SMT sibling completes fewer writes rather than holding
 * the others' figure back; the warm-up leaves out the start, where the threads begin in step.
 * {@code ops=N}: N writes per thread, all of them over the time from the first write to the last
 * thread's exit.
 */
public final class SysbenchMmapRndwr implements Workload {
    private static final long LINES_PER_PAGE = PhysMem.PAGE_SIZE / 64;

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
        return "threads write random blocks of mmap'd DAX files; every 100 writes each file is msync'd (a one-page flush per dirty page)";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "8");
        p.put("ops", "timed");
        p.put("warmup_us", "10000");
        p.put("time_us", "50000");
        // --file-total-size=3G in 4 KiB pages, over --file-num=128 files.
        p.put("pages", "786432");
        p.put("files", "128");
        p.put("block_pages", "4");
        p.put("fsync_freq", "100");
        p.put("dax", "true");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(new Topology(2, 14, 2));
        // The files' blocks are frames of the guest's memory (emulated pmem is RAM), beside its own.
        long pages = params.integer("pages", 1, 1 << 24);
        b.memoryBytes(pages * PhysMem.PAGE_SIZE + GuestConfig.DEFAULT_MEMORY);
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int threads = params.integer("threads", 1, 65536);
        boolean timed = params.wordOrInteger("ops", "timed", "timed").equals("timed");
        int ops = timed ? Integer.MAX_VALUE : params.integer("ops", 1, 100_000_000);
        long warmupNs = 1000L * params.integer("warmup_us", 0, 100_000_000);
        long windowNs = 1000L * params.integer("time_us", 1, 100_000_000);
        Finish finish = new Finish();
        Window window = timed ? new Window(finish, warmupNs, windowNs) : null;
        int pages = params.integer("pages", 1, 1 << 24);
        int files = params.integer("files", 1, 65536);
        int blockPages = params.integer("block_pages", 1, 512);
        int fsyncFreq = params.integer("fsync_freq", 1, 100_000_000);
        boolean dax = params.bool("dax");
        int filePages = pages / files;
        if (filePages < blockPages) {
            throw new dev.pvtlb.model.ModelException(name() + ": " + files + " files of " + pages + " pages in all leave less than a block ("
                    + blockPages + " pages) per file");
        }
        Mm mm = guest.newMm();
        TestFile[] mapped = new TestFile[files];
        for (int f = 0; f < files; f++) {
            long len = (long) filePages * PhysMem.PAGE_SIZE;
            long base = mm.getUnmappedArea(len);
            // mmap(MAP_SHARED) of test_file.f, in file_prepare(): one shared, writable VMA each.
            var vma = mm.insertVma(base, base + len, true, true);
            if (dax) {
                vma.markDax();
            }
            mapped[f] = new TestFile(base, filePages);
        }
        long copyNs = copyNs(guest.costs(), blockPages);
        Requests requests = new Requests(fsyncFreq, files);
        long[] writes = new long[1];
        for (int t = 0; t < threads; t++) {
            int cpu = Pinning.socketFirst(guest.topology(), t, threads);
            guest.spawn("sysbench/" + t, mm, cpu, finish.track(new Writer(mm, mapped, requests, blockPages, ops, copyNs, writes, window)));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            double perS = timed ? writes[0] / (windowNs / 1e9) : writes[0] / finish.elapsedS();
            m.put("throughput", new Metric(perS, "writes/s", true));
            return m;
        };
    }

    /**
     * The memcpy()'s data movement beyond the one store per page the model makes: the block's
     * other lines, each a miss to memory (3 GiB of files are far beyond the LLC), streamed
     * ({@link Costs#streamNs}).
     */
    static long copyNs(Costs c, int blockPages) {
        return c.streamNs((long) blockPages * (LINES_PER_PAGE - 1), c.memPs);
    }

    /**
     * One mapped test file: its pages in the mapping, and the pages written since an msync() last
     * took them for writeback (the mapping's dirty tag, PAGECACHE_TAG_DIRTY on the DAX entries).
     */
    static final class TestFile {
        final long base;
        final int pages;
        final BitSet dirty;

        TestFile(long base, int pages) {
            this.base = base;
            this.pages = pages;
            this.dirty = new BitSet(pages);
        }
    }

    /**
     * sysbench's --time: the run starts with the first thread's first request ({@link
     * Finish#startNs}) and ends {@code warmupNs + lengthNs} later; a write counts when it completes
     * after the warm-up and by the end.
     */
    private record Window(Finish run, long warmupNs, long lengthNs) {
        boolean over(long now) {
            return now - run.startNs() >= warmupNs + lengthNs;
        }

        boolean measures(long now) {
            return now - run.startNs() >= warmupNs && !over(now);
        }
    }

    /**
     * sysbench's request generator, file_get_rnd_request(), shared by every thread: a write, or,
     * when {@code fsyncFreq} writes have been handed out since the files were last synced, an
     * fsync of the next file, until every file has had one.
     */
    static final class Requests {
        private final int fsyncFreq;
        private final int files;
        private long performed;
        private int fsyncedFile;
        private boolean dirty;

        Requests(int fsyncFreq, int files) {
            this.fsyncFreq = fsyncFreq;
            this.files = files;
        }

        /** The file to fsync next, or -1 for a write. */
        int next() {
            if (dirty && performed % fsyncFreq == 0) {
                int f = fsyncedFile++;
                if (fsyncedFile == files) {
                    fsyncedFile = 0;
                    dirty = false;
                }
                return f;
            }
            performed++;
            dirty = true;
            return -1;
        }
    }

    /** One sysbench thread: the writes and msync()s the shared generator hands it. */
    private static final class Writer implements Program {
        private final Mm mm;
        private final TestFile[] files;
        private final Requests requests;
        private final int blockPages;
        private final long copyNs;
        private final long[] writes;
        /** sysbench's --time (ops=timed), else null: {@code left} writes. */
        private final Window window;
        private int left;
        /** The block just written, whose pages are tagged dirty once the write has completed. */
        private TestFile written;
        private int writtenPage;
        private boolean copying;

        Writer(Mm mm, TestFile[] files, Requests requests, int blockPages, int ops, long copyNs, long[] writes, Window window) {
            this.mm = mm;
            this.files = files;
            this.requests = requests;
            this.blockPages = blockPages;
            this.left = ops;
            this.copyNs = copyNs;
            this.writes = writes;
            this.window = window;
        }

        @Override
        public Op next(Task task) {
            long now = task.cpu().kernel().engine().now();
            if (copying) {
                // The block's first store to each page is done (faulting where needed); the rest of the copy.
                copying = false;
                if (copyNs > 0) {
                    return new Spin(copyNs);
                }
            }
            if (written != null) {
                // The DAX fault tagged the entries dirty; msync() finds them by that tag.
                written.dirty.set(writtenPage, writtenPage + blockPages);
                written = null;
                if (window == null || window.measures(now)) {
                    writes[0]++; // the write has completed (sysbench counts it when its memcpy returns)
                }
            }
            if (left == 0 || window != null && window.over(now)) {
                return null;
            }
            int sync = requests.next();
            if (sync >= 0) {
                TestFile f = files[sync];
                return new Syscall(t -> new Msync(mm, f), null);
            }
            left--;
            SplitMix r = task.random();
            TestFile f = files[r.nextInt(files.length)];
            writtenPage = r.nextInt(f.pages / blockPages) * blockPages;
            written = f;
            copying = true;
            return new Touch(f.base + (long) writtenPage * PhysMem.PAGE_SIZE, blockPages, blockPages, 1.0, true, null);
        }
    }

    /**
     * msync(MS_SYNC) of one whole mapped file, reduced to what TLBs see:
     * dax_writeback_mapping_range() takes the pages tagged dirty (tag_pages_for_writeback()) and for
     * each dax_writeback_one() -> dax_entry_mkclean() write-protects and cleans its PTE with
     * ptep_clear_flush(), which flushes that one page on every CPU of the mm (flush_tlb_page ->
     * flush_tlb_mm_range). The next write to the page takes the DAX write fault that makes it
     * writable and dirty again. A file with nothing tagged costs the syscall alone.
     */
    static final class Msync extends InternalPath {
        private final Mm mm;
        private final TestFile file;
        private BitSet tagged;
        private int page = -1;
        private long[] pending;

        Msync(Mm mm, TestFile file) {
            this.mm = mm;
            this.file = file;
        }

        @Override
        public long step(KernelCpu cpu) {
            Kernel g = cpu.kernel();
            long cost = 0;
            if (pc == 0) {
                cost += g.costs().syscallNs;
                tagged = (BitSet) file.dirty.clone();
                file.dirty.clear();
                pc = 1;
            } else if (pending != null) {
                // flush_tlb_page() returned: the page is clean everywhere.
                mm.endFlushPending(pending);
                pending = null;
            }
            for (page = tagged.nextSetBit(page + 1); page >= 0; page = tagged.nextSetBit(page + 1)) {
                long va = file.base + (long) page * PhysMem.PAGE_SIZE;
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
            return "msync";
        }
    }
}
