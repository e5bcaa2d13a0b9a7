package dev.pvtlb.nativebridge.probe;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@link HostProbe} found. {@link #toMap()} gives the fields in a fixed order for JSON
 * (null means absent: not exported by this kernel or not found); {@link #render()} prints
 * the same entries one per line, for {@code pvtlb host probe}.
 *
 * @param kernelLogSource where the boot messages were read: "var/log/dmesg", "dmesg.txt",
 *                        "dmesg" (live) or "none"
 */
public record HostReport(
        String cpuModel,
        int logicalCpus,
        CpuTopology topology,
        Hypervisor hypervisor,
        String kernelLogSource,
        RemoteFlush remoteFlush,
        TlbCounters tlbCounters) {

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cpu_model", cpuModel);
        m.put("logical_cpus", logicalCpus);
        m.put("sockets", topology.sockets().isPresent() ? topology.sockets().getAsInt() : null);
        m.put("physical_cores", topology.cores().isPresent() ? topology.cores().getAsInt() : null);
        m.put("threads_per_core", topology.threadsPerCore().isPresent() ? topology.threadsPerCore().getAsInt() : null);
        m.put("smt_sibling_lists", topology.smtSiblingLists());
        m.put("topology_source", topology.source());
        m.put("hypervisor_present", hypervisor.present());
        m.put("hypervisor", hypervisor.name());
        m.put("hypervisor_evidence", hypervisor.evidence());
        m.put("kernel_log_source", kernelLogSource);
        m.put("remote_tlb_flush", remoteFlush.method());
        m.put("remote_tlb_flush_evidence", remoteFlush.evidence());
        m.put("tlb_shootdowns_per_cpu", tlbCounters.shootdownsPerCpu().isEmpty() ? null : tlbCounters.shootdownsPerCpu());
        m.put(TlbCounters.SHOOTDOWN_IRQS, tlbCounters.shootdownTotal().isPresent() ? tlbCounters.shootdownTotal().getAsLong() : null);
        for (String name : TlbCounters.VMSTAT_NAMES) {
            m.put(name, tlbCounters.vmstat().get(name));
        }
        return Collections.unmodifiableMap(m);
    }

    /**
     * "key: value" per line, keys padded to one column. Absent values print "absent",
     * numbers in a list are space separated, other lists " | " separated.
     */
    public String render() {
        Map<String, Object> m = toMap();
        int width = m.keySet().stream().mapToInt(String::length).max().orElse(0) + 1;
        StringBuilder out = new StringBuilder();
        m.forEach((key, value) -> out.append(String.format("%-" + width + "s %s%n", key + ":", text(value))));
        return out.toString();
    }

    private static String text(Object value) {
        if (value == null) {
            return "absent";
        }
        if (value instanceof List<?> list) {
            if (list.isEmpty()) {
                return "none";
            }
            String separator = list.getFirst() instanceof Number ? " " : " | ";
            return list.stream().map(String::valueOf).collect(Collectors.joining(separator));
        }
        return String.valueOf(value);
    }
}
