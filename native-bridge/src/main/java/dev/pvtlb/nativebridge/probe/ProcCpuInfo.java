package dev.pvtlb.nativebridge.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * /proc/cpuinfo: one "key : value" block per online logical CPU, blocks separated by blank
 * lines (x86 prints "processor", "model name", "physical id", "core id", "flags" ...).
 */
record ProcCpuInfo(List<Map<String, String>> processors) {

    static ProcCpuInfo read(HostFiles files) {
        return files.lines("proc/cpuinfo").map(ProcCpuInfo::parse).orElse(new ProcCpuInfo(List.of()));
    }

    static ProcCpuInfo parse(List<String> lines) {
        List<Map<String, String>> blocks = new ArrayList<>();
        Map<String, String> block = new LinkedHashMap<>();
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (line.isBlank()) {
                addIfProcessor(blocks, block);
                block = new LinkedHashMap<>();
            } else if (colon > 0) {
                block.putIfAbsent(line.substring(0, colon).trim(), line.substring(colon + 1).trim());
            }
        }
        addIfProcessor(blocks, block);
        return new ProcCpuInfo(List.copyOf(blocks));
    }

    // arm64 ends with a block of machine-wide keys ("Hardware", "Revision") that is no CPU.
    private static void addIfProcessor(List<Map<String, String>> blocks, Map<String, String> block) {
        if (block.containsKey("processor")) {
            blocks.add(Map.copyOf(block));
        }
    }

    int count() {
        return processors.size();
    }

    Optional<String> first(String key) {
        return processors.stream().map(p -> p.get(key)).filter(v -> v != null).findFirst();
    }

    boolean hasFlag(String flag) {
        return first("flags").map(f -> List.of(f.split("\\s+")).contains(flag)).orElse(false);
    }
}
