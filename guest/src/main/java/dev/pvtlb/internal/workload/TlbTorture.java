package dev.pvtlb.internal.workload;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.smp.Topology;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A torture test of TLB maintenance in the manner of rcutorture and locktorture: {@code threads}
 * threads of {@code processes} processes each run {@code ops} operations drawn from a weighted
 * {@code mix} of everything that changes or walks page tables (munmap, madvise(MADV_DONTNEED),
 * mprotect, mremap, fork/exit of child processes, gup_fast pins) and of plain accesses and naps,
 * on the slots their process shares ({@code slots} of {@code pages} pages) and one of their own;
 * a fork starts {@code children} short-lived child processes on the forking thread's CPU.
 * The hazard detector checks every access (and every lockless walk), so any stale translation or
 * walk of a freed table the mix provokes is reported, whatever the bug that left it.
 *
 * <p>What it exercises: concurrent zaps of one mm (nested flushes, mm_tlb_flush_nested()), ranged
 * and full flushes (sub-ranges below and above the flush ceiling when {@code pages} exceeds 33),
 * page-table frees (a whole-slot munmap, a child's exit), the lazy TLB of napping CPUs, switch_mm
 * between a thread's mm and its children's (ASID/PCID reuse as children come and go), lockless
 * walks racing frees; on a virtualized backend the guest shares each pCPU with a second VM, so
 * flushes meet preempted vCPUs. Thread t runs on CPU t mod CPUs, in process (t + t / CPUs) mod
 * processes; {@code threads=0} is one per CPU but at least two per process.
 *
 * <p>Timing is the explorer's: each operation ends with a delay of up to {@code delay_ns}, and each
 * nap lasts up to {@code nap_us}, both chosen at ChoicePoint.DELAY among evenly spaced lengths.
 */
public final class TlbTorture implements Workload {
    @Override
    public String name() {
        return "tlb-torture";
    }

    @Override
    public String description() {
        return "torture: threads of several processes mix munmap, madvise, mprotect, mremap, fork/exit, gup_fast, naps and accesses";
    }

    @Override
    public Map<String, String> parameters() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("threads", "0");
        p.put("processes", "2");
        p.put("ops", "24");
        p.put("pages", "8");
        p.put("slots", "2");
        p.put("children", "3");
        p.put("mix", TortureMix.DEFAULT);
        p.put("delay_ns", "3000");
        p.put("nap_us", "20");
        return p;
    }

    @Override
    public void configure(GuestConfig.Builder b, Params params) {
        b.topology(Topology.flat(4));
        // Small, so that a schedule boots fast; the allocator reuses freed frames first (LIFO).
        b.memoryBytes(32L << 20);
        // Idle and lazy CPUs walk their loaded tables speculatively, as hardware may (explore has it on anyway).
        b.speculativeWalks(true);
        if (b.backend().virtualized()) {
            // Each vCPU shares its pCPU with a vCPU of another VM: flushes meet preempted vCPUs.
            b.vms(2);
        }
    }

    @Override
    public Supplier<Map<String, Metric>> setUp(Kernel guest, Params params) {
        int cpus = guest.cpus().length;
        int threads = params.integer("threads", 0, 4096);
        int processes = params.integer("processes", 1, 64);
        if (threads == 0) {
            // One per CPU, and at least two per process, so that every mm has remote flushes to do.
            threads = Math.max(cpus, 2 * processes);
        }
        if (processes > threads) {
            throw new ModelException(String.format("%s: processes=%d needs at least as many threads, got threads=%d",
                    name(), processes, threads));
        }
        int ops = params.integer("ops", 0, 1_000_000);
        int pages = params.integer("pages", 1, 512);
        int slots = params.integer("slots", 0, 64);
        TortureMix mix = TortureMix.parse(name(), params.values().get("mix"));
        long delayNs = params.integer("delay_ns", 0, 100_000_000);
        long napNs = params.integer("nap_us", 1, 100_000) * 1000L;
        int children = params.integer("children", 1, 64);
        TortureRun run = new TortureRun(mix, delayNs, napNs, pages, children);
        // Thread t runs on CPU t mod cpus, in process (t + t / cpus) mod processes: a process's
        // threads spread over the CPUs, and a CPU running several threads runs different processes'.
        int[] procOf = new int[threads];
        int[] perProc = new int[processes];
        for (int t = 0; t < threads; t++) {
            procOf[t] = (t + t / cpus) % processes;
            perProc[procOf[t]]++;
        }
        TortureProcess[] procs = new TortureProcess[processes];
        for (int p = 0; p < processes; p++) {
            procs[p] = new TortureProcess(guest.newMm(), slots, perProc[p], pages);
        }
        int[] seen = new int[processes];
        for (int t = 0; t < threads; t++) {
            int p = procOf[t];
            int k = seen[p]++;
            guest.spawn(name() + "/p" + p + "t" + k, procs[p].mm, t % cpus, new TortureThread(run, procs[p], procs[p].own[k], ops));
        }
        return run::metrics;
    }
}
