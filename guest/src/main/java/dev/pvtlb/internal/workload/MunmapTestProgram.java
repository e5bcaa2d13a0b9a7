package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.model.ModelException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * {@code munmap -n N -t T}, the test program behind Alex Shi's SMT-dedup figures (munmap.c,
 * "macrobenchmark for TLB flush range testing", Intel 2012; its 2012 posting is
 * lkml.org/lkml/2012/5/17/59), in the order it does things:
 * <ol>
 *   <li>Set-up, before the clock starts: one shared anonymous region of {@code region} pages with
 *       every page written once, and {@code region / pages} mappings of {@code pages} pages each
 *       with only the first page written. The model builds both directly (as MAP_POPULATE would),
 *       costing no emulated time, since the program does not time them. Every mapping is
 *       {@code MAP_ANONYMOUS | MAP_SHARED}, a shmem file of its own, so each munmap also tears its
 *       file down ({@link dev.pvtlb.internal.mm.ShmemObject}, {@code shmem.release.ns}).</li>
 *   <li>{@code threads} readers, each with its own {@code reads} random byte addresses in the
 *       shared region (its own rand() array), read them in order, over and over, until told to
 *       stop; the program counts their passes.</li>
 *   <li>The main thread unmaps the small mappings one after another ({@code ops} of them), sleeps
 *       10 ms "to avoid accessmm miss *threadstart == 1", and stops the readers.</li>
 * </ol>
 * With readers running, the program reports the whole time from the kick to the stop, sleep
 * included, divided by the munmap count ({@code munmap_ns}), and that time times the readers over
 * their reads ({@code access_ns}: a reader's wall time per read, so it grows when readers share
 * CPUs, as the 16 readers of {@code -t 16} share 8 threads). Both are computed the same way here.
 *
 * <p>Scale-down: the program unmaps {@code region / pages} mappings (4096 for 1 GiB of 64 pages);
 * with {@code ops} below that only the first {@code ops} are unmapped and the 10 ms sleep is scaled
 * by the same fraction, so both metrics keep the program's arithmetic.
 *
 * <p>Placement: the model has no load balancer. The main thread runs on {@code mainCpu}; each reader
 * is placed on the CPU running the fewest tasks, the main thread's CPU last among equals: with 16
 * readers on 8 CPUs, the main thread shares its CPU with one reader and one other CPU runs three.
 * Which thread of its core the main thread runs on decides how many IPIs the SMT-dedup patch saves
 * (it keeps the lower-numbered thread of each pair in the mask, the sender's own included): with
 * the main thread on thread 0 of its core the patch leaves 3 of 7 targets, on thread 1 it leaves 4.
 * Linux moves the thread between CPUs as it balances load; the model does not.
 */
final class MunmapTestProgram {

    private MunmapTestProgram() {
    }

    /** Guest memory the set-up needs: the region, one page per mapping, and room for tables and the kernel. */
    static long memoryBytes(int regionPages, int pages) {
        long frames = (long) regionPages + regionPages / pages + (64L << 20) / PhysMem.PAGE_SIZE;
        return frames * PhysMem.PAGE_SIZE;
    }

    static Supplier<Map<String, Metric>> setUp(Kernel guest, String name, int threads, int pages, int regionPages,
            int reads, int ops, int mainCpu, int settleUs) {
        if (regionPages % pages != 0 || regionPages / pages < 1) {
            throw new ModelException(String.format("%s: shape=munmap.c needs region to be a multiple of pages, got region=%d pages=%d",
                    name, regionPages, pages));
        }
        int mappings = regionPages / pages;
        if (ops > mappings) {
            throw new ModelException(String.format("%s: shape=munmap.c unmaps at most region/pages = %d mappings, got ops=%d",
                    name, mappings, ops));
        }
        Mm mm = guest.newMm();
        long len = (long) pages * PhysMem.PAGE_SIZE;
        // mmap(FILE_SIZE, MAP_SHARED|MAP_ANONYMOUS), then the small mappings, first page of each written.
        long region = mm.getUnmappedArea((long) regionPages * PhysMem.PAGE_SIZE);
        mm.insertSharedAnonymousVma(region, region + (long) regionPages * PhysMem.PAGE_SIZE, true);
        long[] small = new long[mappings];
        for (int j = 0; j < mappings; j++) {
            small[j] = mm.getUnmappedArea(len);
            mm.insertSharedAnonymousVma(small[j], small[j] + len, true);
            SetUpPages.write(guest, mm, small[j]);
        }
        // "access whole memory, will generate many page faults": one byte written per page.
        SetUpPages.write(guest, mm, region, regionPages);
        // The program's usleep(10000) between the last munmap and the stop (settle_us), scaled to the munmaps run.
        long settleNs = settleUs * 1000L * ops / mappings;
        Run run = new Run(threads, settleNs);
        int cpus = guest.cpus().length;
        if (mainCpu >= cpus) {
            throw new ModelException(String.format("%s: mainCpu=%d but the guest has %d CPUs", name, mainCpu, cpus));
        }
        int[] load = new int[cpus];
        load[mainCpu] = 1;
        guest.spawn(name + "/main", mm, mainCpu, run.new Main(mm, small, len, ops));
        for (int t = 0; t < threads; t++) {
            // randn[k] = rand(), read at startaddr + randn[k] % FILE_SIZE.
            SplittableRandom r = new SplittableRandom(0x6d756e6d6170L + t);
            long[] addresses = new long[reads];
            for (int k = 0; k < reads; k++) {
                addresses[k] = region + r.nextLong((long) regionPages * PhysMem.PAGE_SIZE);
            }
            int cpu = leastLoaded(load, mainCpu);
            load[cpu]++;
            guest.spawn(name + "/reader" + t, mm, cpu, run.new Reader(addresses));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            double wall = run.stoppedAt - run.startedAt;
            m.put("munmap_ns", new Metric(wall / ops, "ns", false));
            m.put("access_ns", new Metric(run.reads.count() == 0 ? 0 : wall * threads / run.reads.count(), "ns", false));
            return m;
        };
    }

    /** The CPU running the fewest tasks, the lowest-numbered among equals but the main thread's last. */
    private static int leastLoaded(int[] load, int mainCpu) {
        int best = -1;
        for (int c = 0; c < load.length; c++) {
            if (c != mainCpu && (best < 0 || load[c] < load[best])) {
                best = c;
            }
        }
        return best < 0 || load[mainCpu] < load[best] ? mainCpu : best;
    }

    /** The program's shared state: the start flag, the stop time, the readers' pass count. */
    private static final class Run {
        private final int readers;
        private final long settleNs;
        private final LatencyRecorder reads = new LatencyRecorder();
        private long startedAt = -1;
        private long stoppedAt = -1;
        private boolean stop;

        Run(int readers, long settleNs) {
            this.readers = readers;
            this.settleNs = settleNs;
        }

        /** munmap() each small mapping in turn, sleep, stop the readers. */
        private final class Main implements Program {
            private final Mm mm;
            private final long[] small;
            private final long len;
            private final int ops;
            private int next;
            private int phase;

            Main(Mm mm, long[] small, long len, int ops) {
                this.mm = mm;
                this.small = small;
                this.len = len;
                this.ops = ops;
            }

            @Override
            public Op next(Task task) {
                if (startedAt < 0) {
                    startedAt = task.cpu().kernel().engine().now();
                }
                if (next < ops) {
                    long r = small[next++];
                    return new Syscall(t -> new ZapRange(mm, r, r + len, ZapRange.Kind.MUNMAP), null);
                }
                switch (phase++) {
                    case 0:
                        return readers == 0 ? stopNow() : new Sleep(settleNs);
                    case 1:
                        return stopNow();
                    default:
                        return null;
                }
            }

            private Op stopNow() {
                phase = 2;
                return (cpu, t) -> {
                    stoppedAt = cpu.kernel().engine().now();
                    stop = true;
                    t.opDone();
                    return 1;
                };
            }
        }

        /** for (;;) read addresses[0..reads) in order, until stopped; each pass counted. */
        private final class Reader implements Program {
            private final long[] addresses;

            Reader(long[] addresses) {
                this.addresses = addresses;
            }

            @Override
            public Op next(Task task) {
                return stop ? null : new Touch(addresses, reads);
            }
        }
    }
}
