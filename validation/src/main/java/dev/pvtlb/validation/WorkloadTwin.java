package dev.pvtlb.validation;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.BenchLimits;
import dev.pvtlb.nativebridge.hostbench.HostBench;
import dev.pvtlb.nativebridge.hostbench.HostBenchResult;
import dev.pvtlb.nativebridge.hostbench.WorkloadTwins;
import dev.pvtlb.nativebridge.probe.HostProbe;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A workload run both on this host (native-bridge's {@link WorkloadTwins}) and in the model, with
 * the same parameters on both sides, and the one figure that means the same on both: munmap-storm's
 * ns per munmap, mprotect-noise's victim slowdown (victim time with the noise over without), and
 * tlb-flush2's ns per loop of one thread. Parameters are the workload's defaults where a host run
 * of them is short, and the host's CPU count for its threads; the model runs one vCPU per host CPU
 * the threads use.
 *
 * @param shape what both sides run, said next to the numbers
 * @param params the workload parameters both sides use
 * @param figure the compared figure's name and unit
 */
public record WorkloadTwin(String name, String shape, Map<String, String> params, String figure, String unit) {
    /** Victim runs per side of mprotect-noise on the host; its figure is a ratio of their medians. */
    static final int NOISE_ROUNDS = 11;

    /** The workloads that have a twin on the host. */
    public static final List<String> NAMES = WorkloadTwins.NAMES;

    /** Every twin's ops bound its length; this only stops a stuck run (20 s). */
    public static final BenchLimits LIMITS = new BenchLimits(1, 16, java.time.Duration.ofSeconds(20));

    /** A kernel release's major and minor version, as {@code uname -r} begins. */
    private static final Pattern RELEASE = Pattern.compile("^(\\d{1,4})\\.(\\d{1,4})");

    /**
     * The twin of {@code name} with {@code threads} threads (mprotect-noise has one victim), for a
     * host running kernel {@code release} ({@code uname -r}). A twin stands for that kernel, so it
     * turns on the model's fidelity switches for what every such kernel does: mmap_lock is an rwsem
     * whose count line moves between the CPUs (from 6.4 page faults take their VMA's lock instead,
     * {@link #mmapLockOf}), and a read fault on anonymous memory maps the zero page. Not pageLocks:
     * the calibration's per-page cost (pte.op.ns) comes from lone munmaps, which already paid the
     * zone and LRU locks' hold times, and the model would charge them a second time.
     */
    static WorkloadTwin of(String name, int threads, String release) {
        WorkloadTwin t = workload(name, threads);
        t.params().put("mmapLock", mmapLockOf(release));
        t.params().put("zeroPage", "on");
        return t;
    }

    /** As above, for the kernel this JVM runs on. */
    public static WorkloadTwin of(String name, int threads) {
        return of(name, threads, runningRelease());
    }

    /** mmapLock for kernel {@code release}: vma from 6.4 (per-VMA locks, 5e31275cc997), else rwsem, and for one it cannot read. */
    static String mmapLockOf(String release) {
        Matcher m = RELEASE.matcher(release);
        if (!m.find()) {
            return "rwsem";
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        return major > 6 || major == 6 && minor >= 4 ? "vma" : "rwsem";
    }

    private static String runningRelease() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/osrelease")).strip();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private static WorkloadTwin workload(String name, int threads) {
        Map<String, String> p = new LinkedHashMap<>();
        switch (name) {
            case "munmap-storm" -> {
                p.put("threads", Integer.toString(threads));
                p.put("pages", "64");
                p.put("ops", "50");
                p.put("workset", "128");
                p.put("accesses", "2000");
                p.put("prefault", "true"); // the host side writes the working set before its loop
                return new WorkloadTwin(name, "every thread (thread t on CPU t) writes its own 128-page working set, then maps "
                        + "64 pages, writes each, makes 2000 accesses over the working set and unmaps; 50 times", p, "munmap_ns",
                        "ns");
            }
            case "mprotect-noise" -> {
                p.put("threads", "1");
                p.put("ops", "200");
                p.put("accesses", "500");
                p.put("workset", "64");
                p.put("noise_pages", "4");
                return new WorkloadTwin(name, "a one-thread victim process on the first CPU writes 64 pages and reads them "
                        + "200 x 500 times; a noise process on the second flips 4 pages read-only and back meanwhile",
                        p, "victim_slowdown", "x");
            }
            case "tlb-flush2" -> {
                p.put("threads", Integer.toString(threads));
                p.put("pages", "64");
                p.put("ops", "100");
                return new WorkloadTwin(name, "every thread (thread t on CPU t) writes its own 64 pages and "
                        + "madvise(DONTNEED)s them; 100 times", p, "loop_ns", "ns");
            }
            case "madvise-touch" -> {
                p.put("readers", Integer.toString(Math.max(1, threads - 1)));
                p.put("pages", "16");
                p.put("ops", "100");
                return new WorkloadTwin(name, "readers (thread t on CPU t) read a 16-page region, then thread 0 writes every "
                        + "page and madvise(DONTNEED)s it, timed together; 100 rounds", p, "madvise_touch_ns", "ns");
            }
            default -> throw new ModelException("'" + name + "' has no host twin; twins: " + String.join(", ", NAMES));
        }
    }

    int threads() {
        return Integer.parseInt(params.get("threads"));
    }

    /** vCPUs of the emulated run: one per host CPU its threads use (mprotect-noise: victim and noise). */
    public int vcpus(int hostCpus) {
        return switch (name) {
            case "mprotect-noise" -> 2;
            case "madvise-touch" -> Math.min(param("readers") + 1, hostCpus);
            default -> Math.min(threads(), hostCpus);
        };
    }

    /** Host CPUs the twin needs: madvise-touch's readers spin on CPUs of their own, apart from the writer's. */
    int minCpus() {
        return name.equals("madvise-touch") ? 2 : 1;
    }

    private int param(String key) {
        return Integer.parseInt(params.get(key));
    }

    /** Runs the host side, pinned to {@code cpus}. */
    public HostBenchResult runOnHost(NativeOs os, int[] cpus, BenchLimits limits) {
        WorkloadTwins twins = new WorkloadTwins(os, new HostBench(os, new HostProbe()));
        return switch (name) {
            case "munmap-storm" -> twins.munmapStorm(threads(), cpus, param("pages"), param("ops"), param("workset"),
                    param("accesses"), limits);
            case "mprotect-noise" -> twins.mprotectNoise(cpus, param("workset"), param("ops"), param("accesses"),
                    param("noise_pages"), NOISE_ROUNDS, limits);
            case "madvise-touch" -> twins.madviseTouch(param("readers"), cpus, param("pages"), param("ops"), limits);
            default -> twins.tlbFlush2(threads(), cpus, param("pages"), param("ops"), limits);
        };
    }

    /** The host's figure: a median, or a ratio of medians. */
    public double hostFigure(HostBenchResult h) {
        return switch (name) {
            case "mprotect-noise" -> h.metrics().get("victim_ms").median() / h.metrics().get("victim_alone_ms").median();
            default -> h.metrics().get(figure).median();
        };
    }

    /** Runs the model's side: {@code scenario} adds the backend, the profile and the seed. */
    public double emulatedFigure(int hostCpus, UnaryOperator<Scenario> scenario) {
        return switch (name) {
            case "munmap-storm" -> run(hostCpus, scenario, Map.of()).metrics().get("munmap_ns").mean();
            case "madvise-touch" -> run(hostCpus, scenario, Map.of()).metrics().get("madvise_touch_ns").mean();
            case "mprotect-noise" -> run(hostCpus, scenario, Map.of("noise", "true")).metrics().get("victim_ms").mean()
                    / run(hostCpus, scenario, Map.of("noise", "false")).metrics().get("victim_ms").mean();
            default -> threads() * 1e9 / run(hostCpus, scenario, Map.of()).metrics().get("loops_per_s").mean();
        };
    }

    private RunReport run(int hostCpus, UnaryOperator<Scenario> scenario, Map<String, String> extra) {
        Scenario s = scenario.apply(Scenario.of(name));
        s.set("vcpus", Integer.toString(vcpus(hostCpus)));
        params.forEach(s::set);
        extra.forEach(s::set);
        return Runner.run(s);
    }
}
