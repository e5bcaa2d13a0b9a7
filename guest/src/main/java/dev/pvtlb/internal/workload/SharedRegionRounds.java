package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.GupFast;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.Mmap;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.TaskWakeup;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.model.ModelException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * munmap-storm's {@code shape=shared}, the program of {@code pvtlb host bench munmap-storm}: per
 * round one initiator (thread 0) maps a region, writes every page and waits while the readers
 * read every page of it ({@code access_ns}), then unmaps it ({@code munmap_ns}). Every CPU of the
 * shootdown holds translations of the range, and the next round's region lands at the same
 * address, so a translation a broken flush left behind is used.
 */
final class SharedRegionRounds {
    /** What the readers do between rounds. */
    enum Wait {
        /** Spin in user mode, as the host benchmark's crew: they stay in the mm and get every shootdown. */
        SPIN,
        /**
         * Block, as on a futex (its wake-up modelled as a poll every model.sleep_poll.ns): their
         * CPUs idle in lazy TLB mode, paging-structure caches still on the tables the munmap frees.
         */
        SLEEP,
        /**
         * Keep pinning the last region with get_user_pages_fast, as a thread doing O_DIRECT I/O from
         * a buffer another thread unmaps: a lockless walk racing the table free.
         */
        GUP;

        static Wait of(String workload, String v) {
            for (Wait w : values()) {
                if (w.name().toLowerCase(Locale.ROOT).equals(v)) {
                    return w;
                }
            }
            throw new ModelException(workload + ": parameter wait must be spin, sleep or gup, got '" + v + "'");
        }
    }


    private final Mm mm;
    private final Wait wait;
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

    private SharedRegionRounds(Mm mm, int pages, int ops, int readers, Wait wait) {
        this.mm = mm;
        this.wait = wait;
        this.pages = pages;
        this.ops = ops;
        this.readers = readers;
    }

    static Supplier<Map<String, Metric>> setUp(Kernel guest, int threads, int pages, int ops, Wait wait) {
        SharedRegionRounds r = new SharedRegionRounds(guest.newMm(), pages, ops, threads - 1, wait);
        int cpus = guest.cpus().length;
        guest.spawn("munmap-storm/0", r.mm, 0, r.new Initiator());
        for (int t = 1; t < threads; t++) {
            guest.spawn("munmap-storm/" + t, r.mm, t % cpus, r.new Reader());
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("munmap_ns", Metric.latency(r.munmap));
            m.put("access_ns", Metric.latency(r.access));
            return m;
        };
    }

    /** An operation that does {@code action} at once, in one nanosecond (MadviseTouch's rounds use it too). */
    static Op now(Runnable action) {
        return (cpu, t) -> {
            action.run();
            t.opDone();
            return 1;
        };
    }

    /** An operation that spins in user mode until {@code done} holds. */
    static Op spinUntil(BooleanSupplier done) {
        return (cpu, t) -> {
            if (done.getAsBoolean()) {
                t.opDone();
                return 1;
            }
            return Spin.step(cpu);
        };
    }

    /** mmap, write every page, open the round, wait for the readers, munmap; {@code ops} times. */
    private final class Initiator implements Program {
        private final long len = (long) pages * PhysMem.PAGE_SIZE;
        private int loop;
        private int phase;

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
                    return now(() -> {
                        readersDone = 0;
                        opened++;
                    });
                case 3:
                    return spinUntil(() -> readersDone == readers);
                default:
                    phase = 0;
                    loop++;
                    long r = region;
                    return new Syscall(t -> new ZapRange(mm, r, r + len, ZapRange.Kind.MUNMAP), munmap);
            }
        }
    }

    /** Wait for the next round, read every page of its region, report; {@code ops} times. */
    private final class Reader implements Program {
        private int seen;
        private int phase;

        @Override
        public Op next(Task task) {
            switch (phase) {
                case 0:
                    if (seen == ops) {
                        return null;
                    }
                    phase = 1;
                    return (cpu, t) -> {
                        if (opened > seen) {
                            t.opDone();
                            return 1;
                        }
                        switch (wait) {
                            case SLEEP -> {
                                // Blocked: its CPU idles, lazy on the mm; then it looks again.
                                phase = 0;
                                t.opDone();
                                TaskWakeup.sleep(t, cpu.kernel().costs().sleepPollNs);
                                return 0;
                            }
                            case GUP -> {
                                if (region != 0) {
                                    // The region it last read, racing the next munmap; a failed pin is not an error.
                                    cpu.call(new GupFast(mm, region, pages, pte -> { }));
                                    return 1;
                                }
                                return Spin.step(cpu);
                            }
                            default -> {
                                return Spin.step(cpu);
                            }
                        }
                    };
                case 1:
                    phase = 2;
                    seen++;
                    return new Touch(region, pages, pages, 0.0, true, access);
                default:
                    phase = 0;
                    return now(() -> readersDone++);
            }
        }
    }
}
