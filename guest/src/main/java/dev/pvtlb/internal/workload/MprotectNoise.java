package dev.pvtlb.internal.workload;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.kernel.Mprotect;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Program;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.smp.Topology;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The shape of the test in Takao Indoh, "arm64: Introduce boot parameter to disable TLB flush
 * instruction within the same inner shareable domain",
 * lore.kernel.org/r/20190617143255.10462-1-indou.takao@jp.fujitsu.com: a single-threaded victim
 * does a fixed amount of work (random reads over its working set) while "a small application, which
 * just calls mprotect() continuously" runs on a sibling core. With arm64's broadcast TLBI ...IS
 * every mprotect reaches the victim's CPU too; with local TLBIs on mm_cpumask (arm64.flush=local)
 * or x86 IPIs it does not. Metric {@code victim_ms}: the victim's elapsed time. {@code noise=false}
 * leaves the noise process out, for the baseline. Meant for {@code --backend arm64}; default
 * machine: 4 cores.
 */
public final class MprotectNoise implements Workload {
    @Override
    public boolean exploredInWindows() {
        return true; // a benchmark's long run: explore branches its flushes (ScheduleRunner.runWindows)
    }

    @Override
    public String name() {
        return "mprotect-noise";
    }

    @Override
    public String description() {
        return "a single-threaded victim computes while another process on a sibling core calls mprotect in a loop (arm64)";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "1");
        p.put("ops", "200");
        p.put("accesses", "500");
        p.put("workset", "64");
        p.put("noise", "true");
        p.put("noise_pages", "4");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(Topology.flat(4));
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int victims = params.integer("threads", 1, 65536);
        int ops = params.integer("ops", 1, 100_000_000);
        int accesses = params.integer("accesses", 1, 100_000_000);
        int workset = params.integer("workset", 1, 1 << 18);
        int noisePages = params.integer("noise_pages", 1, 1 << 18);
        boolean noise = params.bool("noise");
        int cpus = guest.cpus().length;
        if (cpus < 2) {
            throw new dev.pvtlb.model.ModelException(name() + " needs at least 2 CPUs (victim and noise), got " + cpus);
        }
        Finish victimsDone = new Finish();
        for (int v = 0; v < victims; v++) {
            Mm mm = guest.newMm();
            long len = (long) workset * PhysMem.PAGE_SIZE;
            long base = mm.getUnmappedArea(len);
            mm.insertVma(base, base + len, true, false);
            // Victims on even CPUs (core 0, 2, ...), the noise on the neighbouring core 1.
            int cpu = (2 * v) % cpus == 1 ? 0 : (2 * v) % cpus;
            guest.spawn("victim/" + v, mm, cpu, victimsDone.track(new Victim(base, workset, ops, accesses)));
        }
        if (noise) {
            Mm mm = guest.newMm();
            long len = (long) noisePages * PhysMem.PAGE_SIZE;
            long base = mm.getUnmappedArea(len);
            mm.insertVma(base, base + len, true, false);
            guest.spawn("mprotect-loop", mm, 1, new Noise(mm, base, noisePages, victimsDone));
        }
        return () -> {
            Map<String, Metric> m = new LinkedHashMap<>();
            m.put("victim_ms", new Metric(victimsDone.elapsedNs() / 1e6, "ms", false));
            return m;
        };
    }

    /** Fault the working set in, then {@code ops} batches of random reads. */
    private static final class Victim implements Program {
        private final long base;
        private final int pages;
        private final int accesses;
        private int left;
        private boolean populated;

        Victim(long base, int pages, int ops, int accesses) {
            this.base = base;
            this.pages = pages;
            this.left = ops;
            this.accesses = accesses;
        }

        @Override
        public Op next(Task task) {
            if (!populated) {
                populated = true;
                return new Touch(base, pages, pages, 1.0, true, null);
            }
            if (left == 0) {
                return null;
            }
            left--;
            return new Touch(base, pages, accesses, 0.0, false, null);
        }
    }

    /** mprotect(PROT_READ) then mprotect(PROT_READ|PROT_WRITE) of a small region, until the victims are done. */
    private static final class Noise implements Program {
        private final Mm mm;
        private final long base;
        private final int pages;
        private final Finish victims;
        private int phase;

        Noise(Mm mm, long base, int pages, Finish victims) {
            this.mm = mm;
            this.base = base;
            this.pages = pages;
            this.victims = victims;
        }

        @Override
        public Op next(Task task) {
            if (phase == 0) {
                phase = 1;
                return new Touch(base, pages, pages, 1.0, true, null);
            }
            if (victims.done()) {
                return null;
            }
            long end = base + (long) pages * PhysMem.PAGE_SIZE;
            boolean writable = phase++ % 2 == 0;
            return new Syscall(t -> new Mprotect(mm, base, end, writable), null);
        }
    }
}
