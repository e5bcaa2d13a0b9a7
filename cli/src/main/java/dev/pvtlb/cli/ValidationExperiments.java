package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import java.util.ArrayList;
import java.util.List;

/**
 * The experiments of {@code validation.md} as data: each published figure with its
 * band and source, the runs the acceptance check (10-cost-fidelity) makes, and how it turns them
 * into the emulated figure. Published figures are derived here from the numbers the sources
 * print, so a reader can check the arithmetic. The virtualization experiments (kvm-boost,
 * kvm-sched-yield) run ebizzy under the KVM backend for 20 host slices, the other VMs running
 * ebizzy too (co-guests, others=same).
 */
final class ValidationExperiments {
    private ValidationExperiments() {}

    /** Experiments listed in validation.md that {@code pvtlb validate} does not run yet. */
    static final List<String> NOT_RUN_YET = List.of();

    /**
     * The KVM host of the 2019 measurements, as kvm-boost and kvm-sched-yield run it: no user-mode
     * boost (52acd22faa1a is 5.13), CFS (EEVDF came with 6.6) moving threads to idle CPUs, a halted
     * vCPU looking preempted and the PV sched yield going to idle targets too (before
     * 9ee83635d872, 5.17); the other VMs run ebizzy as well. Declared before {@link #ALL}, whose
     * experiments are built from it.
     */
    private static final List<String> KVM_HOST_2019 = List.of("kvm.boostUserMode=false", "host.scheduler=cfs",
            "host.balance=idle", "kvm.preemptedOnHalt=true", "kvm.schedYieldSkipsIdle=false", "others=same");

    /** The guest's locks every kernel takes: mmap_lock as an rwsem, the page allocator's and the LRU's. */
    private static final List<String> GUEST_LOCKS = List.of("mmapLock=rwsem", "pageLocks=on");

    private static final double[] THREADS = {1, 2, 4, 8, 16, 32, 56};
    private static final int[] VMS = {1, 2, 3};

    static final List<ValidationExperiment> ALL = List.of(
            concurrentFlush(), lazyTlb(), rcuTableFree(), smtDedup(), smtDedupAbsolute(), arm64Noise(),
            kvmBoost(), kvmSchedYield());

    static List<String> ids() {
        return ALL.stream().map(ValidationExperiment::id).toList();
    }

    /** The experiments named (all of them for an empty list), in table order; an unknown id is bad input. */
    static List<ValidationExperiment> select(List<String> ids) {
        for (String id : ids) {
            if (!ids().contains(id)) {
                String later = NOT_RUN_YET.contains(id) ? " ('" + id + "' is in validation.md's virtualization section, not run yet)" : "";
                throw new ModelException("--only: unknown experiment '" + id + "'" + later + "; experiments: "
                        + String.join(", ", ids()));
            }
        }
        return ALL.stream().filter(e -> ids.isEmpty() || ids.contains(e.id())).toList();
    }

    /** {@code 100 (after / before - 1)}: a change in percent, as the sources and the check compute it. */
    static double change(double before, double after) {
        return 100 * (after / before - 1);
    }

    private static ValidationExperiment concurrentFlush() {
        List<ValidationRun> runs = new ArrayList<>();
        for (double t : THREADS) {
            for (String v : List.of("false", "true")) {
                runs.add(ValidationRun.of("cf-" + (int) t + "-" + v, "sysbench-mmap-rndwr", "threads=" + (int) t,
                        "native.concurrentFlush=" + v));
            }
        }
        // Nadav Amit's first table (sysbench fileio rndwr on mmap, tip-aug22 vs the series), in percent.
        double[] published = {1.4, 2.4, 1.5, 4.2, 2.8, 3.6, 3.2};
        ValidationCurve curve = new ValidationCurve("throughput change by threads", "threads", THREADS, published,
                FigureUnit.PERCENT, ValidationExperiments::concurrentFlushChange);
        return new ValidationExperiment("concurrent-flush",
                "Nadav Amit, \"[PATCH v4 0/9] x86/tlb: Concurrent TLB flushes\", LKML, August 2019",
                "Skylake, 2 sockets x 14 cores x 2 threads (56 CPUs), sysbench fileio mmap random write; "
                        + "emulated: sysbench-mmap-rndwr, native.concurrentFlush=false vs true",
                runs, List.of(
                        new ValidationFigure("throughput change, mean of 2..56 threads", FigureUnit.PERCENT,
                                (2.4 + 1.5 + 4.2 + 2.8 + 3.6 + 3.2) / 6,
                                "+2.4, +1.5, +4.2, +2.8, +3.6, +3.2% at 2..56 threads", Band.closed(0.8, 8), r -> {
                                    double sum = 0;
                                    for (int i = 1; i < THREADS.length; i++) {
                                        sum += concurrentFlushChange(r, THREADS[i]);
                                    }
                                    return sum / (THREADS.length - 1);
                                }),
                        new ValidationFigure("throughput change, lowest of 1..56 threads", FigureUnit.PERCENT, 1.4,
                                "+1.4% at 1 thread", Band.atLeast(-1), r -> {
                                    double min = Double.POSITIVE_INFINITY;
                                    for (double t : THREADS) {
                                        min = Math.min(min, concurrentFlushChange(r, t));
                                    }
                                    return min;
                                })),
                curve);
    }

    private static double concurrentFlushChange(RunResults r, double threads) {
        int t = (int) threads;
        return change(r.mean("cf-" + t + "-false", "throughput"), r.mean("cf-" + t + "-true", "throughput"));
    }

    private static ValidationExperiment lazyTlb() {
        return new ValidationExperiment("lazy-tlb",
                "Rik van Riel, \"[PATCH 0/7] x86,tlb,mm: make lazy TLB mode even lazier\", LKML, 2018 (Song Liu's netperf results)",
                "48-CPU PCID system, netperf request/response; lazy TLB off (what PCID systems did) vs the series; "
                        + "emulated: netperf-rr, lazy=off vs skip",
                List.of(ValidationRun.of("lz-off", "netperf-rr", "lazy=off"), ValidationRun.of("lz-skip", "netperf-rr", "lazy=skip")),
                List.of(
                        new ValidationFigure("transactions/s change", FigureUnit.PERCENT, change(1.74716e6, 1.76911e6),
                                "throughput 1.74716e6 -> 1.76911e6", Band.closed(0.3, 5),
                                r -> change(r.mean("lz-off", "transactions_per_s"), r.mean("lz-skip", "transactions_per_s"))),
                        new ValidationFigure("switch_mm_irqs_off share, reduction", FigureUnit.PERCENT,
                                100 * (1 - 0.81 / (0.95 + 0.82)), "0.95% + 0.82% -> 0.81% of samples", Band.atLeast(40), r -> {
                                    double before = r.mean("lz-off", "switch_mm_share");
                                    double after = r.mean("lz-skip", "switch_mm_share");
                                    return before != 0 ? 100 * (1 - after / before) : 0;
                                })),
                null);
    }

    private static ValidationExperiment rcuTableFree() {
        List<ValidationRun> runs = new ArrayList<>();
        for (int cpus : new int[] {6, 16}) {
            for (String v : List.of("immediate", "rcu")) {
                runs.add(ValidationRun.of("kb-" + cpus + "-" + v, "kernbench", "vcpus=" + cpus, "tableFree=" + v));
            }
        }
        return new ValidationExperiment("rcu-table-free",
                "Vitaly Kuznetsov's kernbench of HAVE_RCU_TABLE_FREE, in \"Re: [tip:x86/platform] x86/hyper-v: "
                        + "Use hypercall for remote TLB flush\" (Xen PV / Hyper-V discussion), LKML, August 2017",
                "kernbench on 6- and 16-CPU hosts, half and optimal load, without vs with RCU table freeing; "
                        + "emulated: kernbench, vcpus=6 and 16, tableFree=immediate vs rcu",
                runs, List.of(
                        new ValidationFigure("elapsed change at 6 CPUs", FigureUnit.PERCENT,
                                (change(400.498, 399.909) + change(219.03, 218.959)) / 2,
                                "400.498 -> 399.909 s (half load), 219.03 -> 218.959 s (optimal); mean of the two",
                                Band.open(-1, 1), r -> change(r.mean("kb-6-immediate", "elapsed_s"), r.mean("kb-6-rcu", "elapsed_s"))),
                        new ValidationFigure("elapsed change at 16 CPUs", FigureUnit.PERCENT,
                                (change(213.538, 212.5) + change(137.866, 138.438)) / 2,
                                "213.538 -> 212.5 s (half load), 137.866 -> 138.438 s (optimal); mean of the two",
                                Band.open(-1, 1), r -> change(r.mean("kb-16-immediate", "elapsed_s"), r.mean("kb-16-rcu", "elapsed_s")))),
                null);
    }

    private static final String ALEX_SHI = "Alex Shi, \"[REF PATCH] x86/tlb: just do tlb flush on one of siblings of SMT\", "
            + "LKML, 2016 (measured on v4.5)";

    /**
     * The published program itself (munmap-storm shape=munmap.c, its defaults those of {@code munmap -n 64
     * -t 16}: 1 GiB region, 512 reads per reader), unscaled: all 4096 munmaps. Each design runs twice,
     * the munmap thread on either thread of core 0 (mainCpu=0 and 4): the patch keeps the lower thread
     * of each pair, the sender's own included, so it leaves the sender 3 targets on thread 0 and 4 on
     * thread 1 (x0.43 or x0.57 of 7). Linux moves the thread between CPUs over the run (the published
     * 15912 / 4616 = 3.45 targets per flush lies between); the model has no load balancer, so every
     * figure weighs the two placements equally (sums of counters, means of metrics).
     */
    private static List<ValidationRun> smtRuns() {
        List<ValidationRun> runs = new ArrayList<>();
        for (String dedup : List.of("false", "true")) {
            for (String thread : List.of("0", "1")) {
                runs.add(ValidationRun.of("smt-" + dedup + "-t" + thread, "munmap-storm", "shape=munmap.c", "ops=4096",
                        "mainCpu=" + (thread.equals("0") ? "0" : "4"), "native.smtSiblingDedup=" + dedup));
            }
        }
        return runs;
    }

    /** A counter summed over both placements of the munmap thread. */
    private static double smtCounter(RunResults r, String dedup, String counter) {
        return r.counter("smt-" + dedup + "-t0", counter) + r.counter("smt-" + dedup + "-t1", counter);
    }

    /** A metric's mean over both placements of the munmap thread. */
    private static double smtMean(RunResults r, String dedup, String metric) {
        return (r.mean("smt-" + dedup + "-t0", metric) + r.mean("smt-" + dedup + "-t1", metric)) / 2;
    }

    private static ValidationExperiment smtDedup() {
        return new ValidationExperiment("smt-dedup", ALEX_SHI,
                "Haswell i7 desktop (4 cores x 2 threads), munmap -n 64 -t 16, without vs with the patch; "
                        + "emulated: munmap-storm shape=munmap.c (the program), native.smtSiblingDedup=false vs true, "
                        + "the munmap thread on thread 0 and on thread 1 of its core, weighed equally",
                smtRuns(), List.of(
                        new ValidationFigure("nr_tlb_remote_flush ratio", FigureUnit.RATIO, 4616.0 / 4616, "4616 -> 4616",
                                Band.closed(0.98, 1.02), r -> smtCounter(r, "true", "nr_tlb_remote_flush")
                                        / smtCounter(r, "false", "nr_tlb_remote_flush")),
                        new ValidationFigure("nr_tlb_remote_flush_received ratio", FigureUnit.RATIO, 15912.0 / 32262,
                                "32262 -> 15912", Band.closed(0.45, 0.55), r -> smtCounter(r, "true", "nr_tlb_remote_flush_received")
                                        / smtCounter(r, "false", "nr_tlb_remote_flush_received")),
                        new ValidationFigure("munmap time change", FigureUnit.PERCENT, change(14072, 11933), "14072 -> 11933 ns",
                                Band.closed(-30, -5), r -> change(smtMean(r, "false", "munmap_ns"), smtMean(r, "true", "munmap_ns"))),
                        new ValidationFigure("access time change", FigureUnit.PERCENT, change(20, 16), "20 -> 16 ns",
                                Band.closed(-35, -5), r -> change(smtMean(r, "false", "access_ns"), smtMean(r, "true", "access_ns")))),
                null);
    }

    private static ValidationExperiment smtDedupAbsolute() {
        return new ValidationExperiment("smt-dedup-absolute", ALEX_SHI,
                "as smt-dedup, before the patch: the absolute costs; emulated: munmap-storm shape=munmap.c, "
                        + "native.smtSiblingDedup=false, both placements of the munmap thread",
                smtRuns().subList(0, 2), List.of(
                        new ValidationFigure("munmap per call", FigureUnit.NS, 14072, "14072 ns/time",
                                Band.around(14072, 0.35), r -> smtMean(r, "false", "munmap_ns")),
                        new ValidationFigure("memory access", FigureUnit.NS, 20, "cost 20 ns/time",
                                Band.around(20, 0.35), r -> smtMean(r, "false", "access_ns"))),
                null);
    }

    private static ValidationExperiment arm64Noise() {
        return new ValidationExperiment("arm64-noise",
                "Takao Indoh, \"[PATCH 0/2] arm64: Introduce boot parameter to disable TLB flush instruction within the "
                        + "same inner shareable domain\", LKML, 17 June 2019",
                "ThunderX2, a single-threaded victim alone vs with an mprotect loop on a sibling core; broadcast TLBI vs "
                        + "TLBI on mm_cpumask only (the patch); emulated: mprotect-noise --backend arm64, noise=false vs "
                        + "arm64.flush=broadcast and local",
                List.of(ValidationRun.onBackend("arm-alone", "mprotect-noise", "arm64", "noise=false"),
                        ValidationRun.onBackend("arm-broadcast", "mprotect-noise", "arm64", "arm64.flush=broadcast"),
                        ValidationRun.onBackend("arm-local", "mprotect-noise", "arm64", "arm64.flush=local")),
                List.of(
                        new ValidationFigure("victim time with noise / alone, broadcast TLBI", FigureUnit.RATIO, 49.0 / 39,
                                "39 ms -> 49 ms", Band.closed(1.10, 1.45),
                                r -> r.mean("arm-broadcast", "victim_ms") / r.mean("arm-alone", "victim_ms")),
                        new ValidationFigure("victim time with noise / alone, local TLBI", FigureUnit.RATIO, 1.0,
                                "\"the performance problem is fixed\" (no figure given)", Band.closed(0.97, 1.05),
                                r -> r.mean("arm-local", "victim_ms") / r.mean("arm-alone", "victim_ms"))),
                null);
    }

    private static double boostGain(RunResults r, int vms) {
        return change(r.mean("kb-" + vms + "-false", "records_per_s"), r.mean("kb-" + vms + "-true", "records_per_s"));
    }

    /** ebizzy on that host: the run's own settings, the host's, {@code after}, the guest's locks, in this order. */
    private static ValidationRun ebizzyOn2019Kvm(String key, List<String> own, String... after) {
        List<String> sets = new ArrayList<>(own);
        sets.addAll(KVM_HOST_2019);
        sets.addAll(List.of(after));
        sets.addAll(GUEST_LOCKS);
        return ValidationRun.onBackend(key, "ebizzy", "kvm", sets.toArray(String[]::new));
    }

    private static ValidationExperiment kvmBoost() {
        List<ValidationRun> runs = new ArrayList<>();
        for (int vms : VMS) {
            for (String v : List.of("false", "true")) {
                // The host and guest of 2019 (Linux 5.2): no PV sched yield (5.3), a vCPU preempted in
                // user mode is no directed-yield candidate (52acd22faa1a, 5.13, not yet), and the host's
                // fair scheduler is CFS (EEVDF came with 6.6). The other VMs run ebizzy too (co-guests),
                // its threads take mmap_lock and the page allocator's and LRU's locks (paravirtual
                // spinlocks, as a 5.2 KVM guest has them) as every kernel does, and each VM count is measured over
                // the same window (ops=timed: 20 host slices, as ebizzy -S runs for a time).
                runs.add(ebizzyOn2019Kvm("kb-" + vms + "-" + v, List.of("vms=" + vms, "kvm.boost=" + v, "kvm.pvSchedYield=false"),
                        "ops=timed"));
            }
        }
        return new ValidationExperiment("kvm-boost",
                "Wanpeng Li, \"KVM: Boost vCPUs that are delivering interrupts\", commit d73eb57b80b9, 2019 (commit message)",
                "2-socket Skylake, 80 hyperthreads, 80-vCPU 80 GB VMs, ebizzy -M in one VM and the same in the others; "
                        + "host without vs with the boost; emulated: ebizzy --backend kvm (64 vCPUs on 64 pCPUs), vms=1..3, "
                        + "kvm.boost=false vs true, kvm.pvSchedYield=false, kvm.boostUserMode=false, host.scheduler=cfs, "
                        + "host.balance=idle, kvm.preemptedOnHalt=true, kvm.schedYieldSkipsIdle=false, others=same (the other VMs run ebizzy), ops=timed, mmapLock=rwsem, pageLocks=on",
                runs, List.of(
                        new ValidationFigure("records/s change, 1 VM", FigureUnit.PERCENT, change(21443, 23520),
                                "21443 -> 23520", Band.closed(0, 25), r -> boostGain(r, 1)),
                        new ValidationFigure("records/s change, 2 VMs", FigureUnit.PERCENT, change(2800, 8000),
                                "2800 -> 8000", Band.atLeast(30), r -> boostGain(r, 2)),
                        new ValidationFigure("records/s change, 3 VMs", FigureUnit.PERCENT, change(1800, 3100),
                                "1800 -> 3100", Band.atLeast(30), r -> boostGain(r, 3)),
                        new ValidationFigure("without the boost: records/s 2 VMs / 1 VM", FigureUnit.RATIO, 2800.0 / 21443,
                                "21443 (1 VM) -> 2800 (2 VMs)", Band.closed(0, 0.5),
                                r -> r.mean("kb-2-false", "records_per_s") / r.mean("kb-1-false", "records_per_s"))),
                null);
    }

    private static ValidationExperiment kvmSchedYield() {
        return new ValidationExperiment("kvm-sched-yield",
                "Wanpeng Li, \"KVM: X86: Implement PV sched yield\", commit 715062970f37, 2019 (cover letter of the series)",
                "over-subscribed host, ebizzy, PV TLB flush disabled so that flush IPIs go through smp_call_function_many; "
                        + "emulated: ebizzy --backend kvm, vms=2, others=same, mmapLock=rwsem, pageLocks=on, kvm.pvTlbFlush=false, kvm.boostUserMode=false, "
                        + "host.scheduler=cfs, host.balance=idle, kvm.preemptedOnHalt=true, kvm.schedYieldSkipsIdle=false, kvm.pvSchedYield=false vs true",
                // A host of 2019 (Linux 5.3): the boost (5.2) is there, 52acd22faa1a (5.13) is not.
                List.of(ebizzyOn2019Kvm("ky-false", List.of("vms=2", "kvm.pvTlbFlush=false", "kvm.pvSchedYield=false")),
                        ebizzyOn2019Kvm("ky-true", List.of("vms=2", "kvm.pvTlbFlush=false", "kvm.pvSchedYield=true"))),
                List.of(new ValidationFigure("records/s change", FigureUnit.PERCENT, 17, "+17%", Band.closed(5, 40),
                        r -> change(r.mean("ky-false", "records_per_s"), r.mean("ky-true", "records_per_s")))),
                null);
    }
}
