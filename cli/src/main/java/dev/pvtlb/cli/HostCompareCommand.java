package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.BenchLimits;
import dev.pvtlb.nativebridge.hostbench.HostBench;
import dev.pvtlb.nativebridge.hostbench.HostBenchResult;
import dev.pvtlb.nativebridge.hostbench.Metric;
import dev.pvtlb.nativebridge.probe.HostProbe;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.validation.DetectedBackend;
import dev.pvtlb.validation.WorkloadTwin;
import dev.pvtlb.validation.calibration.CalibratedProfile;
import dev.pvtlb.validation.calibration.Calibration;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb host compare SCENARIO}: the same scenario on this host and in the model, side
 * by side. By default both sides run the workload's one program ({@link WorkloadTwin}); the older
 * host shape of munmap-storm (one initiator unmapping while the others read, {@code --host-shape
 * readers}) runs a different program from the model's, and is compared only when
 * {@code --allow-shape-mismatch} says so. The host figure is a median over rounds (robust to the
 * odd preempted round); the emulated one is the model's mean, deterministic for the seed.
 */
@Command(name = "compare", description = "Run a scenario on this host and in the model: metric, host, emulated, ratio.")
final class HostCompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "a workload with a host twin: munmap-storm, mprotect-noise, tlb-flush2")
    String scenario;

    @Option(names = "--host-shape", paramLabel = "twin|readers", description = "the host's program: twin (default: the "
            + "emulated workload's own) or readers (munmap-storm: one initiator unmaps while the others read)")
    String hostShape = "twin";

    @Option(names = "--allow-shape-mismatch", description = "compare even when the host and the model run different programs")
    boolean allowShapeMismatch;

    @Option(names = "--threads", paramLabel = "N", description = "remote threads on the host, vCPUs and threads in the model (default 2)")
    int threads = 2;

    @Option(names = "--profile", paramLabel = "P", description = "profile of the emulation, built-in name or file (default: calibrate this host first)")
    String profile;

    @Option(names = "--json", paramLabel = "FILE", description = "also write the comparison as JSON")
    Path json;

    @Option(names = "--backend", paramLabel = "B", description = "pv_ops backend of the emulation (default: native); "
            + "a host that flushes by hypercall compares best with its own mechanism: pvm, hyperv or xen-pv")
    String backend = "native";

    @Mixin
    HostRunOptions host;

    /** One metric on both sides. */
    record Row(String metric, String unit, Metric host, double emulated) {
        double ratio() {
            return emulated / host.median();
        }
    }

    @Override
    public Integer call() throws IOException {
        // Every check that can fail comes before the first measurement.
        ComparedScenario compared = switch (hostShape) {
            case "twin" -> ComparedScenario.twin(scenario, threads);
            case "readers" -> ComparedScenario.named(scenario);
            default -> throw new ModelException("--host-shape must be twin or readers, got '" + hostShape + "'");
        };
        if (!compared.sameShape() && !allowShapeMismatch) {
            throw new ModelException("host compare " + scenario + ": the host runs '" + compared.hostShape()
                    + "' and the model '" + compared.emulatedShape() + "'; add --allow-shape-mismatch to compare them anyway");
        }
        HostRunOptions.checkThreads(threads);
        ReportFile.check(json, "--json");
        NativeOs os = host.os();
        int[] cpus = host.cpus(os);
        BenchLimits limits = host.limits();
        Scenario emulated = Scenario.of(scenario).backend(backend);
        Map<String, String> settings = compared.emulatedSettings(threads, limits.pages(), cpus.length);
        settings.forEach(emulated::set);
        if (profile != null) {
            Profile.load(profile);
        }
        HostProbe probe = new HostProbe();
        String remoteFlush = probe.probe().remoteFlush().method();
        Path calibratedFile = null;
        try {
            Map<String, Double> calibrated = Map.of();
            if (profile == null) {
                CalibratedProfile c = Calibration.calibrate(os, threads, cpus, limits);
                calibrated = c.values();
                calibratedFile = Files.createTempFile("pvtlb-calibrated-", ".yaml");
                Files.writeString(calibratedFile, c.yaml(), StandardCharsets.UTF_8);
            }
            String profileUsed = profile != null ? profile : calibratedFile.toString();
            emulated.set("profile", profileUsed);
            HostBenchResult h;
            RunReport e = Runner.run(emulated);
            List<Row> rows = new ArrayList<>();
            if (compared.twin() != null) {
                WorkloadTwin t = compared.twin();
                h = t.runOnHost(os, cpus, WorkloadTwin.LIMITS);
                double eFigure = t.emulatedFigure(cpus.length, x -> x.backend(backend).set("profile", profileUsed));
                Metric hm = t.figure().equals("victim_slowdown")
                        ? new Metric(t.hostFigure(h), t.hostFigure(h), 0, t.unit(), h.iterations())
                        : h.metrics().get(t.figure());
                rows.add(new Row(t.figure(), t.unit(), hm, eFigure));
            } else {
                h = new HostBench(os, probe).byName(scenario, threads, cpus, limits);
                for (String metric : compared.metrics()) {
                    RunReport.Summary s = e.metrics().get(metric);
                    rows.add(new Row(metric, s.unit(), h.metrics().get(metric), s.mean()));
                }
            }
            List<String> notes = notes(h, remoteFlush, e.backend());
            print(spec.commandLine().getOut(), compared, h, remoteFlush, e, settings, calibrated, rows, notes);
            if (json != null) {
                ReportFile.write(json, "--json", Json.write(toMap(compared, h, remoteFlush, e, settings, calibrated, rows, notes)));
            }
            return 0;
        } finally {
            if (calibratedFile != null) {
                Files.deleteIfExists(calibratedFile);
            }
        }
    }

    private static List<String> notes(HostBenchResult h, String remoteFlush, String emulatedBackend) {
        List<String> notes = new ArrayList<>();
        if (h.remoteCpus().isEmpty()) {
            notes.add("no remote thread ran on a CPU other than the initiator's: the host figure holds no remote shootdown");
        }
        if (!remoteFlush.equals("native IPI") && emulatedBackend.equals("native")) {
            notes.add("this host flushes remote TLBs by " + remoteFlush
                    + "; the emulation's native backend sends IPIs, so the ratio compares two mechanisms (try --backend "
                    + DetectedBackend.of(remoteFlush) + ")");
        }
        return notes;
    }

    private static void print(PrintWriter out, ComparedScenario c, HostBenchResult h, String remoteFlush, RunReport e,
                              Map<String, String> settings, Map<String, Double> calibrated, List<Row> rows, List<String> notes) {
        out.printf("host compare %s%n", c.name());
        out.printf("host      %s binding, cpus %s: initiator on the first, %d remote thread(s) round robin on the rest "
                        + "(remote CPUs %s); %d rounds; remote TLB flush by %s%n", h.backend(), h.cpus(), h.threads(),
                h.remoteCpus(), h.iterations(), remoteFlush);
        out.printf("emulated  backend %s, profile %s%s, seed %d; %s, other parameters at their defaults%n", e.backend(),
                e.profile(), calibrated.isEmpty() ? "" : " (calibrated now: " + keyValues(calibrated) + ")", e.seed(),
                keyValues(settings));
        out.printf("shapes    %s%n", c.shapes());
        out.printf("same program on both sides: %s%n", c.sameShape() ? "yes" : "NO (--allow-shape-mismatch)");
        out.println();
        out.printf("%-16s %18s %18s %16s%n", "metric", "host (median)", "emulated (mean)", "emulated/host");
        for (Row r : rows) {
            out.printf("%-16s %15s %-2s %15s %-2s %16s%n", r.metric(), Json.number(round(r.host().median(), 10)), r.unit(),
                    Json.number(round(r.emulated(), 10)), r.unit(), Json.number(round(r.ratio(), 1000)));
        }
        notes.forEach(n -> out.printf("note: %s%n", n));
        out.flush();
    }

    private static Map<String, Object> toMap(ComparedScenario c, HostBenchResult h, String remoteFlush, RunReport e,
                                             Map<String, String> settings, Map<String, Double> calibrated,
                                             List<Row> rows, List<String> notes) {
        Map<String, Object> hostSide = new LinkedHashMap<>();
        hostSide.put("backend", h.backend());
        hostSide.put("threads", h.threads());
        hostSide.put("cpus", h.cpus());
        hostSide.put("remote_cpus", h.remoteCpus());
        hostSide.put("rounds", h.iterations());
        hostSide.put("remote_tlb_flush", remoteFlush);
        Map<String, Object> emulatedSide = new LinkedHashMap<>();
        emulatedSide.put("backend", e.backend());
        emulatedSide.put("profile", e.profile());
        emulatedSide.put("calibrated_keys", calibrated);
        emulatedSide.put("seed", e.seed());
        emulatedSide.put("settings", settings);
        emulatedSide.put("params", new TreeMap<>(e.params())); // RunReport's copy has no fixed order
        Map<String, Object> metrics = new LinkedHashMap<>();
        for (Row r : rows) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("unit", r.unit());
            m.put("host_median", r.host().median());
            m.put("host_mean", r.host().mean());
            m.put("host_stdev", r.host().stdev());
            m.put("host_samples", r.host().samples());
            m.put("emulated", r.emulated());
            m.put("ratio", r.ratio());
            metrics.put(r.metric(), m);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("scenario", c.name());
        m.put("shapes", c.shapes());
        m.put("same_shape", c.sameShape());
        m.put("host", hostSide);
        m.put("emulated", emulatedSide);
        m.put("metrics", metrics);
        m.put("notes", notes);
        return m;
    }

    private static String keyValues(Map<String, ?> m) {
        StringBuilder b = new StringBuilder();
        m.forEach((k, v) -> b.append(b.isEmpty() ? "" : " ").append(k).append('=')
                .append(v instanceof Double d ? Json.number(d) : v));
        return b.toString();
    }

    private static double round(double d, double scale) {
        return Math.round(d * scale) / scale;
    }
}
