package dev.pvtlb.nativebridge.hostbench;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one host benchmark measured.
 *
 * @param benchmark "munmap-storm", "munmap-alone", "mprotect-noise" or "madvise-touch"
 * @param backend the NativeOs that made the calls ("ffm" or "jna")
 * @param threads remote threads besides the initiator
 * @param cpus the CPUs asked for: the initiator on the first, remote thread i on
 *             {@code cpus[(i + 1) % cpus.length]}
 * @param iterations rounds of the timed operation completed
 * @param metrics by name (munmap_ns, access_ns, victim_ms, mprotect_ns, madvise_touch_ns, loops_per_s)
 * @param counterDeltas after minus before, for the counters this host has:
 *                      {@code tlb_shootdown_irqs} and the nr_tlb_* vmstat names
 * @param absentCounters nr_tlb_* names this kernel does not export (no CONFIG_DEBUG_TLBFLUSH)
 */
public record HostBenchResult(
        String benchmark,
        String backend,
        int threads,
        List<Integer> cpus,
        int iterations,
        Duration elapsed,
        Map<String, Metric> metrics,
        Map<String, Long> counterDeltas,
        List<String> absentCounters) {

    public HostBenchResult {
        cpus = List.copyOf(cpus);
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        counterDeltas = Collections.unmodifiableMap(new LinkedHashMap<>(counterDeltas));
        absentCounters = List.copyOf(absentCounters);
    }

    /**
     * The CPUs other than the initiator's that remote threads ran on, each once, ascending:
     * the CPUs a flush of this address space had to reach. Fewer than {@code threads} when
     * threads outnumber the CPUs given, and empty when they all share the initiator's CPU.
     */
    public List<Integer> remoteCpus() {
        int[] given = cpus.stream().mapToInt(Integer::intValue).toArray();
        return Arrays.stream(HostBench.crewCpus(threads, given))
                .filter(cpu -> cpu != given[0]).sorted().distinct().boxed().toList();
    }

    /** The fields in a fixed order for JSON; metrics as {mean, stdev, unit, samples}. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("benchmark", benchmark);
        m.put("backend", backend);
        m.put("threads", threads);
        m.put("cpus", cpus);
        m.put("remote_cpus", remoteCpus());
        m.put("iterations", iterations);
        m.put("elapsed_ms", elapsed.toNanos() / 1e6);
        Map<String, Object> metricMaps = new LinkedHashMap<>();
        metrics.forEach((name, metric) -> metricMaps.put(name, metric.toMap()));
        m.put("metrics", metricMaps);
        m.put("counter_deltas", counterDeltas);
        m.put("absent_counters", absentCounters);
        return m;
    }
}
