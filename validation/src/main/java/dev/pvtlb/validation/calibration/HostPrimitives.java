package dev.pvtlb.validation.calibration;

import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.BenchLimits;
import dev.pvtlb.nativebridge.hostbench.BusyNeighbours;
import java.util.Arrays;
import java.util.Map;
import dev.pvtlb.nativebridge.hostbench.HostBench;
import dev.pvtlb.nativebridge.hostbench.Metric;
import dev.pvtlb.nativebridge.probe.HostProbe;

/**
 * The primitives {@code pvtlb calibrate} measures besides {@link HostMeasurements}' shootdown
 * figures, each alone on the initiator's CPU while a computing process holds every other CPU given
 * ({@link BusyNeighbours}: no CPU lazily in this mm for a flush to reach), unless said otherwise. A plain record, so
 * {@link CalibratedProfile} can be tested on figures chosen by hand.
 *
 * @param fault ns per page of writing a freshly mapped page (first-touch fault with zeroing)
 * @param munmapSmall ns per munmap of {@link #SMALL_PAGES} written pages, no remote thread
 * @param munmapLarge ns per munmap of {@link #LARGE_PAGES} written pages, no remote thread
 * @param mprotect ns per mprotect of the calibration's mapping, no remote thread
 * @param line ns per one-way cache-line transfer between the first two CPUs (null with one CPU)
 * @param munmapRemote ns per munmap of {@link #SMALL_PAGES} pages while remote threads read the
 *                     mapping on the other CPUs (null with one CPU)
 */
record HostPrimitives(Metric fault, Metric munmapSmall, Metric munmapLarge, Metric mprotect, Metric line, Metric munmapRemote) {
    /** Both above tlb_single_page_flush_ceiling (33), so the local flush is one full flush in both. */
    static final int SMALL_PAGES = 64;
    static final int LARGE_PAGES = 128;

    static HostPrimitives measure(NativeOs os, HostProbe probe, int threads, int[] cpus, BenchLimits limits) {
        HostBench bench = new HostBench(os, probe);
        Metric line = cpus.length > 1 ? bench.lineTransfer(cpus, limits).metrics().get("line_ns") : null;
        Metric remote = cpus.length > 1
                ? bench.munmapStorm(threads, cpus, sized(limits, SMALL_PAGES)).metrics().get("munmap_ns") : null;
        // The lone measurements run with every other CPU busy in another process, so that no CPU
        // is left lazily in this process's mm_cpumask for their flushes to reach.
        BusyNeighbours busy = new BusyNeighbours(os, Arrays.copyOfRange(cpus, 1, cpus.length));
        try {
            Metric fault = bench.firstTouch(cpus[0], sized(limits, SMALL_PAGES)).metrics().get("fault_ns");
            // The two sizes in turns: their difference is the per-page cost, and measured one
            // after the other it was as often the host's drift between the two phases.
            Map<String, Metric> pair = bench.munmapAlonePair(cpus[0], LARGE_PAGES, sized(limits, SMALL_PAGES)).metrics();
            Metric small = pair.get("munmap_ns");
            Metric large = pair.get("munmap_large_ns");
            Metric mprotect = bench.mprotectAlone(cpus[0], limits).metrics().get("mprotect_ns");
            return new HostPrimitives(fault, small, large, mprotect, line, remote);
        } finally {
            busy.close();
        }
    }

    private static BenchLimits sized(BenchLimits l, int pages) {
        return new BenchLimits(l.iterations(), pages, l.maxRun());
    }
}
