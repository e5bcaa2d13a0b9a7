package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.nativebridge.hostbench.HostBench;
import dev.pvtlb.internal.workload.catalogue.Workloads;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario that exists both as a real host benchmark and as an emulated workload, with
 * what it takes to line the two up: the workload settings that match a host run, and the
 * metrics that mean the same on both sides (a metric with the same name but another meaning
 * stays out). Only these can be compared; today that is munmap-storm.
 *
 * @param metrics metric names measured the same way on both sides, in print order
 * @param shapes how the two runs differ, said next to the numbers
 */
record ComparedScenario(String name, List<String> metrics, String shapes) {

    private static final List<ComparedScenario> ALL = List.of(new ComparedScenario("munmap-storm",
            // access_ns is per page read once from a fresh mapping on the host, per access over a
            // long-lived working set in the emulation: same name, different thing.
            List.of("munmap_ns"),
            "host: one initiator maps, touches and unmaps while the remote threads read the mapping; "
                    + "emulated: every thread maps, touches, works on its own memory and unmaps"));

    /**
     * The workload settings for a host run with {@code threads} remote threads: one vCPU and one
     * workload thread per host thread ({@code vcpus = threads}), mappings of the same size.
     */
    Map<String, String> emulatedSettings(int threads, int pages) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("vcpus", Integer.toString(threads));
        s.put("threads", Integer.toString(threads));
        s.put("pages", Integer.toString(pages));
        return s;
    }

    /** @throws ModelException naming what is missing when {@code name} is not comparable */
    static ComparedScenario named(String name) {
        for (ComparedScenario c : ALL) {
            if (c.name.equals(name)) {
                return c;
            }
        }
        boolean host = HostBench.NAMES.contains(name);
        boolean emulated = Workloads.all().stream().anyMatch(w -> w.name().equals(name));
        String comparable = String.join(", ", ALL.stream().map(ComparedScenario::name).toList());
        if (host && !emulated) {
            throw new ModelException("'" + name + "' is a host benchmark with no emulated workload yet; comparable: " + comparable);
        }
        if (emulated && !host) {
            throw new ModelException("'" + name + "' is an emulated workload with no host benchmark; comparable: " + comparable);
        }
        if (host) {
            throw new ModelException("'" + name + "' has no metrics lined up between host and emulation yet; comparable: " + comparable);
        }
        throw new ModelException("unknown scenario '" + name + "'; comparable: " + comparable);
    }
}
