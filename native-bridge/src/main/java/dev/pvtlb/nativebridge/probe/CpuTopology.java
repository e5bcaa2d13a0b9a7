package dev.pvtlb.nativebridge.probe;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which logical CPUs share a core and a package. Read like jcstress's Topology: sysfs
 * first (/sys/devices/system/cpu/cpuN/topology/), then /proc/cpuinfo's "physical id" and
 * "core id" when sysfs is missing (containers without /sys, captures that left it out),
 * else nothing.
 *
 * @param source "sysfs", "cpuinfo" or "none"
 * @param cpus one entry per online logical CPU, by CPU number
 */
public record CpuTopology(String source, List<LogicalCpu> cpus) {

    /** @param threadSiblings the CPUs on the same core, in cpulist format ("0,4", "0-1") */
    public record LogicalCpu(int cpu, int packageId, int coreId, String threadSiblings) {}

    private static final Pattern CPU_DIR = Pattern.compile("cpu(\\d+)");

    public CpuTopology {
        cpus = List.copyOf(cpus);
    }

    static CpuTopology read(HostFiles files, ProcCpuInfo cpuinfo) {
        List<LogicalCpu> fromSysfs = fromSysfs(files);
        if (!fromSysfs.isEmpty()) {
            return new CpuTopology("sysfs", fromSysfs);
        }
        List<LogicalCpu> fromCpuinfo = fromCpuinfo(cpuinfo);
        if (!fromCpuinfo.isEmpty()) {
            return new CpuTopology("cpuinfo", fromCpuinfo);
        }
        return new CpuTopology("none", List.of());
    }

    public OptionalInt sockets() {
        return count(cpus.stream().map(LogicalCpu::packageId));
    }

    /** Physical cores over all sockets. */
    public OptionalInt cores() {
        return count(cpus.stream().map(c -> List.of(c.packageId(), c.coreId())));
    }

    public OptionalInt threadsPerCore() {
        return cpus.stream().mapToInt(c -> CpuList.parse(c.threadSiblings()).length).max();
    }

    /** Distinct sibling lists, ordered by their first CPU: "0,4", "1,5", ... */
    public List<String> smtSiblingLists() {
        return cpus.stream().map(LogicalCpu::threadSiblings).distinct()
                .sorted(Comparator.comparingInt(l -> CpuList.parse(l)[0])).toList();
    }

    private static OptionalInt count(Stream<?> keys) {
        long n = keys.distinct().count();
        return n == 0 ? OptionalInt.empty() : OptionalInt.of((int) n);
    }

    private static List<LogicalCpu> fromSysfs(HostFiles files) {
        Path dir = files.resolve("sys/devices/system/cpu");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<LogicalCpu> cpus = new ArrayList<>();
        try (Stream<Path> entries = Files.list(dir)) {
            List<Integer> numbers = entries.map(p -> CPU_DIR.matcher(p.getFileName().toString()))
                    .filter(m -> m.matches()).map(m -> Integer.parseInt(m.group(1))).sorted().toList();
            for (int n : numbers) {
                String base = "sys/devices/system/cpu/cpu" + n + "/topology/";
                var pkg = files.firstLine(base + "physical_package_id");
                var core = files.firstLine(base + "core_id");
                var siblings = files.firstLine(base + "thread_siblings_list");
                // An offline CPU has no topology directory: it is not part of the picture.
                if (pkg.isPresent() && core.isPresent() && siblings.isPresent()) {
                    cpus.add(new LogicalCpu(n, Integer.parseInt(pkg.get()), Integer.parseInt(core.get()),
                            CpuList.normalize(siblings.get())));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return cpus;
    }

    private static List<LogicalCpu> fromCpuinfo(ProcCpuInfo cpuinfo) {
        Map<List<Integer>, List<Integer>> byCore = new LinkedHashMap<>();
        List<int[]> raw = new ArrayList<>();
        for (Map<String, String> p : cpuinfo.processors()) {
            String pkg = p.get("physical id");
            String core = p.get("core id");
            if (pkg == null || core == null) {
                return List.of(); // partial topology is worse than none
            }
            int[] cpu = {Integer.parseInt(p.get("processor")), Integer.parseInt(pkg), Integer.parseInt(core)};
            raw.add(cpu);
            byCore.computeIfAbsent(List.of(cpu[1], cpu[2]), k -> new ArrayList<>()).add(cpu[0]);
        }
        return raw.stream()
                .map(c -> new LogicalCpu(c[0], c[1], c[2],
                        CpuList.format(Objects.requireNonNull(byCore.get(List.of(c[1], c[2]))))))
                .sorted(Comparator.comparingInt(LogicalCpu::cpu)).toList();
    }
}
