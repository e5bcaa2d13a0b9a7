package dev.pvtlb.nativebridge.probe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * TLB flush counters at one instant: the "TLB" row of /proc/interrupts ("TLB shootdowns",
 * flush IPIs received per CPU, x86 only) and the nr_tlb_* counters of /proc/vmstat. The
 * latter exist only in kernels built with CONFIG_DEBUG_TLBFLUSH; when absent they are
 * reported absent, never as zero. A guest that flushes by hypercall receives no flush IPIs,
 * so its TLB row stays near zero however much it flushes.
 *
 * @param shootdownsPerCpu the TLB row by CPU column; empty when there is no such row
 * @param vmstat the nr_tlb_* counters present, in {@link #VMSTAT_NAMES} order
 */
public record TlbCounters(List<Long> shootdownsPerCpu, Map<String, Long> vmstat) {

    public static final List<String> VMSTAT_NAMES = List.of(
            "nr_tlb_remote_flush", "nr_tlb_remote_flush_received",
            "nr_tlb_local_flush_all", "nr_tlb_local_flush_one");

    /** The delta key for the summed TLB row of /proc/interrupts. */
    public static final String SHOOTDOWN_IRQS = "tlb_shootdown_irqs";

    public TlbCounters {
        shootdownsPerCpu = List.copyOf(shootdownsPerCpu);
        vmstat = Collections.unmodifiableMap(new LinkedHashMap<>(vmstat));
    }

    static TlbCounters read(HostFiles files) {
        return parse(files.lines("proc/interrupts").orElse(List.of()), files.lines("proc/vmstat").orElse(List.of()));
    }

    static TlbCounters parse(List<String> interrupts, List<String> vmstatLines) {
        return new TlbCounters(tlbRow(interrupts), nrTlb(vmstatLines));
    }

    /** Sum of the TLB row; empty when /proc/interrupts has none. */
    public OptionalLong shootdownTotal() {
        return shootdownsPerCpu.isEmpty() ? OptionalLong.empty()
                : OptionalLong.of(shootdownsPerCpu.stream().mapToLong(Long::longValue).sum());
    }

    public List<String> absentVmstat() {
        return VMSTAT_NAMES.stream().filter(n -> !vmstat.containsKey(n)).toList();
    }

    /**
     * {@code this - before} for every counter present in both: {@link #SHOOTDOWN_IRQS}
     * first, then the vmstat names.
     */
    public Map<String, Long> deltaSince(TlbCounters before) {
        Map<String, Long> delta = new LinkedHashMap<>();
        if (shootdownTotal().isPresent() && before.shootdownTotal().isPresent()) {
            delta.put(SHOOTDOWN_IRQS, shootdownTotal().getAsLong() - before.shootdownTotal().getAsLong());
        }
        for (String name : VMSTAT_NAMES) {
            if (vmstat.containsKey(name) && before.vmstat.containsKey(name)) {
                delta.put(name, vmstat.get(name) - before.vmstat.get(name));
            }
        }
        return delta;
    }

    private static List<Long> tlbRow(List<String> interrupts) {
        if (interrupts.isEmpty()) {
            return List.of();
        }
        int cpus = interrupts.getFirst().trim().split("\\s+").length; // "CPU0 CPU1 ..."
        for (String line : interrupts) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length > 0 && fields[0].equals("TLB:")) {
                List<Long> row = new ArrayList<>();
                for (int i = 1; i < fields.length && row.size() < cpus && fields[i].matches("\\d+"); i++) {
                    row.add(Long.parseLong(fields[i]));
                }
                return row;
            }
        }
        return List.of();
    }

    private static Map<String, Long> nrTlb(List<String> lines) {
        Map<String, Long> found = new LinkedHashMap<>();
        for (String line : lines) {
            String[] kv = line.trim().split("\\s+");
            if (kv.length == 2 && VMSTAT_NAMES.contains(kv[0])) {
                found.put(kv[0], Long.parseLong(kv[1]));
            }
        }
        Map<String, Long> ordered = new LinkedHashMap<>();
        VMSTAT_NAMES.stream().filter(found::containsKey).forEach(n -> ordered.put(n, found.get(n)));
        return ordered;
    }
}
