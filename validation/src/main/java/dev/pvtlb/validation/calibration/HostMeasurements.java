package dev.pvtlb.validation.calibration;

import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.BenchLimits;
import dev.pvtlb.nativebridge.hostbench.BusyNeighbours;
import java.util.Arrays;
import dev.pvtlb.nativebridge.hostbench.HostBench;
import dev.pvtlb.nativebridge.hostbench.HostBenchResult;
import dev.pvtlb.nativebridge.hostbench.Metric;
import dev.pvtlb.nativebridge.probe.HostProbe;
import dev.pvtlb.nativebridge.probe.HostReport;
import java.util.List;

/**
 * The primitive costs {@code pvtlb calibrate} measures on the real host, with what it needs to
 * say how: the host, the binding, the CPUs. A plain record, so {@link CalibratedProfile} can
 * be tested on figures chosen by hand.
 *
 * @param remoteFlush how this kernel flushes other CPUs' TLBs, as {@code pvtlb host probe} says
 * @param initiatorCpu the CPU the timed calls ran on
 * @param remoteCpus other CPUs that ran the address space during the timed munmap
 * @param threads remote threads in the munmap, mprotect and madvise measurements
 * @param pages pages of every mapping
 * @param getpid ns per getpid() call
 * @param munmapAlone ns per munmap with no remote thread, every other CPU busy in another process
 * @param munmapRemote ns per munmap with the remote threads running the mm
 * @param mprotect ns per mprotect of the mapping while remote victims run
 * @param madviseTouch ns per round of touching the mapping and madvise(DONTNEED) of it
 */
record HostMeasurements(String cpuModel, int logicalCpus, String hypervisor, String remoteFlush, String backend,
                        int initiatorCpu, List<Integer> remoteCpus, int threads, int pages,
                        Metric getpid, Metric munmapAlone, Metric munmapRemote, Metric mprotect, Metric madviseTouch) {

    /** getpid calls to time: 100 batches of 1000, about a tenth of a second even where a syscall takes 1 us. */
    static final int GETPID_CALLS = 100_000;

    /** Rounds run before the timed ones, at most half a second each. */
    static final BenchLimits WARM_UP = new BenchLimits(300, 16, java.time.Duration.ofMillis(500));

    HostMeasurements {
        remoteCpus = List.copyOf(remoteCpus);
    }

    /** Runs the host benchmarks one after another; bounded by {@code limits} each. */
    static HostMeasurements measure(NativeOs os, HostProbe probe, int threads, int[] cpus, BenchLimits limits) {
        HostReport host = probe.probe();
        HostBench bench = new HostBench(os, probe);
        Metric getpid = bench.getpidCost(GETPID_CALLS);
        // Warm-up, not kept: until the JIT has compiled the timed loops its threads compete for
        // the CPUs, and with the other CPUs busy they all land on the initiator's.
        bench.munmapAlone(cpus[0], WARM_UP);
        bench.munmapStorm(threads, cpus, WARM_UP);
        HostBenchResult alone;
        // The baseline with every other CPU busy in another process: none is in this mm's
        // cpumask, lazily or not, so the baseline holds no remote flush (see BusyNeighbours).
        BusyNeighbours busy = new BusyNeighbours(os, Arrays.copyOfRange(cpus, 1, cpus.length));
        try {
            alone = bench.munmapAlone(cpus[0], limits);
        } finally {
            busy.close();
        }
        HostBenchResult remote = bench.munmapStorm(threads, cpus, limits);
        HostBenchResult mprotect = bench.mprotectNoise(threads, cpus, limits);
        HostBenchResult madvise = bench.madviseTouch(threads, cpus, limits);
        return new HostMeasurements(host.cpuModel(), host.logicalCpus(), host.hypervisor().name(),
                host.remoteFlush().method(), os.name(), cpus[0], remote.remoteCpus(), threads, limits.pages(),
                getpid, alone.metrics().get("munmap_ns"), remote.metrics().get("munmap_ns"),
                mprotect.metrics().get("mprotect_ns"), madvise.metrics().get("madvise_touch_ns"));
    }
}
