package dev.pvtlb.internal.workload;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.ZapRange;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.smp.Topology;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The program of {@code pvtlb host bench madvise-touch} (HostBench.madviseTouch): one region of
 * {@code pages} pages; per round the readers (threads 1..readers) read every page of it, and then
 * the initiator (thread 0) writes every page and drops them all with madvise(MADV_DONTNEED),
 * timed together ({@code madvise_touch_ns}); {@code ops} rounds. A reader's read of a dropped
 * page maps the shared zero page (with {@code zeroPage=on}, as every kernel does), so each of the
 * initiator's writes copies it and shoots the page down on the readers' CPUs, one flush a page,
 * before the madvise flushes the whole region once more.
 */
public final class MadviseTouch implements Workload {
    @Override
    public boolean exploredInWindows() {
        return true; // a benchmark's long run: explore branches its flushes (ScheduleRunner.runWindows)
    }

    @Override
    public String name() {
        return "madvise-touch";
    }

    @Override
    public String description() {
        return "readers read a region, then one thread writes every page and madvise(DONTNEED)s it, in rounds";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("readers", "1");
        p.put("pages", "16");
        p.put("ops", "100");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(Topology.flat(params.integer("readers", 1, 65535) + 1));
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int readers = params.integer("readers", 1, 65535);
        int pages = params.integer("pages", 1, 1 << 18);
        int ops = params.integer("ops", 1, 100_000_000);
        int cpus = guest.cpus().length;
        if (cpus < 2) {
            // The readers spin in user mode between rounds, as the host bench's do: on the
            // writer's CPU they would spin where it must run.
            throw new dev.pvtlb.model.ModelException("madvise-touch needs vcpus >= 2 (the readers spin on CPUs of their own), got " + cpus);
        }
        Rounds r = new Rounds(guest.newMm(), pages, ops, readers);
        guest.spawn("madvise-touch/0", r.mm, 0, r.new Initiator());
        for (int t = 1; t <= readers; t++) {
            guest.spawn("madvise-touch/" + t, r.mm, 1 + (t - 1) % (cpus - 1), r.new Reader());
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("madvise_touch_ns", Metric.latency(r.loop));
            return m;
        };
    }

    /** The rounds' shared state: the region, which round is open, how many readers are done. */
    private static final class Rounds {
        final Mm mm;
        final int pages;
        final int ops;
        final int readers;
        final long base;
        final LatencyRecorder loop = new LatencyRecorder();
        int opened;
        int readersDone;
        long start;

        Rounds(Mm mm, int pages, int ops, int readers) {
            this.mm = mm;
            this.pages = pages;
            this.ops = ops;
            this.readers = readers;
            long len = (long) pages * PhysMem.PAGE_SIZE;
            this.base = mm.getUnmappedArea(len);
            mm.insertVma(base, base + len, true, false);
        }

        /** Opens a round, waits for the readers, then writes every page and madvises; {@code ops} times. */
        final class Initiator implements Program {
            private int loops;
            private int phase;

            @Override
            public Op next(Task task) {
                if (loops == ops) {
                    return null;
                }
                switch (phase++) {
                    case 0:
                        return SharedRegionRounds.now(() -> {
                            readersDone = 0;
                            opened++;
                        });
                    case 1:
                        return SharedRegionRounds.spinUntil(() -> readersDone == readers);
                    case 2:
                        return (cpu, t) -> {
                            start = cpu.kernel().engine().now();
                            t.opDone();
                            return 0;
                        };
                    case 3:
                        return new Touch(base, pages, pages, 1.0, true, null);
                    case 4:
                        long end = base + (long) pages * PhysMem.PAGE_SIZE;
                        return new Syscall(t -> new ZapRange(mm, base, end, ZapRange.Kind.MADV_DONTNEED), null);
                    default:
                        phase = 0;
                        loops++;
                        return (cpu, t) -> {
                            loop.addNs(cpu.kernel().engine().now() - start);
                            t.opDone();
                            return 0;
                        };
                }
            }
        }

        /** Waits for the next round, reads every page of the region, reports; {@code ops} times. */
        final class Reader implements Program {
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
                        return SharedRegionRounds.spinUntil(() -> opened > seen);
                    case 1:
                        phase = 2;
                        seen++;
                        return new Touch(base, pages, pages, 0.0, true, null);
                    default:
                        phase = 0;
                        return SharedRegionRounds.now(() -> readersDone++);
                }
            }
        }
    }
}
