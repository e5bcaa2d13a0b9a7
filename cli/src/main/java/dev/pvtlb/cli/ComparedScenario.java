package dev.pvtlb.cli;

import dev.pvtlb.run.ScenarioInfo;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.nativebridge.hostbench.HostBench;
import dev.pvtlb.validation.WorkloadTwin;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A scenario that exists both as a real host benchmark and as an emulated workload, with
 * what it takes to line the two up: the workload settings that match a host run, and the
 * metrics that mean the same on both sides (a metric with the same name but another meaning
 * stays out). The workloads with a host twin compare like with like; munmap-storm's older host
 * shape (readers) is kept, and says that it differs.
 *
 * @param metrics metric names measured the same way on both sides, in print order
 * @param shapes how the two runs differ, said next to the numbers
 */
record ComparedScenario(String name, List<String> metrics, String hostShape, String emulatedShape, WorkloadTwin twin) {

    private static final String EMULATED_MUNMAP_STORM = "every thread maps, touches, works on its own memory and unmaps";

    private static final List<ComparedScenario> ALL = List.of(new ComparedScenario("munmap-storm",
            // access_ns is per page read once from a fresh mapping on the host, per access over a
            // long-lived working set in the emulation: same name, different thing.
            List.of("munmap_ns"),
            "one initiator maps, touches and unmaps while the remote threads read the mapping",
            EMULATED_MUNMAP_STORM, null));

    /** Both sides run {@code name}'s twin program with {@code threads} threads. */
    static ComparedScenario twin(String name, int threads) {
        if (!WorkloadTwin.NAMES.contains(name)) {
            named(name); // says what is missing, by name
        }
        WorkloadTwin t = WorkloadTwin.of(name, threads);
        return new ComparedScenario(name, List.of(t.figure()), t.shape(), t.shape(), t);
    }

    /** Whether both sides run one program. */
    boolean sameShape() {
        return hostShape.equals(emulatedShape);
    }

    /** How the two runs differ, or what both run, said next to the numbers. */
    String shapes() {
        return sameShape() ? "both: " + hostShape : "host: " + hostShape + "; emulated: " + emulatedShape;
    }

    /**
     * The workload settings for a host run with {@code threads} threads on {@code hostCpus}
     * CPUs: a twin's parameters; else one vCPU and one workload thread per host thread
     * ({@code vcpus = threads}), mappings of the same size.
     */
    Map<String, String> emulatedSettings(int threads, int pages, int hostCpus) {
        Map<String, String> s = new LinkedHashMap<>();
        if (twin != null) {
            s.put("vcpus", Integer.toString(twin.vcpus(hostCpus)));
            s.putAll(twin.params());
            return s;
        }
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
        boolean host = HostBench.NAMES.contains(name) || WorkloadTwin.NAMES.contains(name);
        boolean emulated = ScenarioInfo.all().stream().anyMatch(w -> w.name().equals(name));
        String comparable = String.join(", ", WorkloadTwin.NAMES);
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
