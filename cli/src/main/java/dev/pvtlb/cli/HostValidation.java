package dev.pvtlb.cli;

import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.HostBenchResult;
import dev.pvtlb.nativebridge.hostbench.Metric;
import dev.pvtlb.nativebridge.probe.HostReport;
import dev.pvtlb.report.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code pvtlb validate --host}: this host as the published machine. Each workload twin runs on
 * the host (its median is the "published" figure) and in the model with the backend whose
 * mechanism the probe found and the given or freshly calibrated profile; the emulated figure
 * passes within {@value #BAND_PERCENT}% of the host's.
 */
final class HostValidation {
    static final int BAND_PERCENT = 25;

    private final HostReport host;
    private final String backend;
    private final String profile;
    private final Map<String, Double> calibrated;
    private final List<ValidationResult> results = new ArrayList<>();

    private HostValidation(HostReport host, String backend, String profile, Map<String, Double> calibrated) {
        this.host = host;
        this.backend = backend;
        this.profile = profile;
        this.calibrated = calibrated;
    }

    /**
     * Runs every twin with {@code threads} threads on {@code cpus}; {@code profile} is a built-in
     * name or a file, {@code calibrated} the keys a calibration just set in it (empty for --profile).
     */
    static HostValidation run(NativeOs os, HostReport host, int[] cpus, int threads, String profile,
                              Map<String, Double> calibrated) {
        HostValidation v = new HostValidation(host, DetectedBackend.of(host.remoteFlush().method()), profile, calibrated);
        for (String name : WorkloadTwin.NAMES) {
            v.results.add(v.experiment(os, cpus, WorkloadTwin.of(name, threads)));
        }
        return v;
    }

    private ValidationResult experiment(NativeOs os, int[] cpus, WorkloadTwin t) {
        HostBenchResult h = t.runOnHost(os, cpus, WorkloadTwin.LIMITS);
        double hostFigure = t.hostFigure(h);
        double emulated = t.emulatedFigure(cpus.length, s -> s.backend(backend).set("profile", profile));
        FigureUnit unit = t.unit().equals("x") ? FigureUnit.RATIO : FigureUnit.NS;
        ValidationFigure f = new ValidationFigure(t.figure(), unit, hostFigure, spread(t, h),
                Band.around(hostFigure, BAND_PERCENT / 100.0), runs -> emulated);
        String source = "this host: " + host.cpuModel() + ", " + host.logicalCpus() + " CPUs, hypervisor "
                + host.hypervisor().name() + ", remote flush by " + host.remoteFlush().method();
        String setup = t.shape() + "; host on cpus " + h.cpus() + "; emulated with backend " + backend + ", profile "
                + profile + ", vcpus=" + t.vcpus(cpus.length) + " " + params(t);
        ValidationExperiment e = new ValidationExperiment("host-" + t.name(), source, setup, List.of(), List.of(f), null);
        return new ValidationResult(e, List.of(new ValidationResult.Figure(f, emulated, Double.NaN)), null);
    }

    /** How the host figure came about: its samples and spread. */
    private static String spread(WorkloadTwin t, HostBenchResult h) {
        if (t.name().equals("mprotect-noise")) {
            Map<String, Metric> m = h.metrics();
            return "median victim time with the noise over without: " + describe(m.get("victim_ms")) + " / "
                    + describe(m.get("victim_alone_ms")) + "; controls (no twin in the model): beside a computing process x"
                    + ratio(m, "victim_busy_ms", "victim_alone_ms") + ", beside a getpid() loop x"
                    + ratio(m, "victim_syscalls_ms", "victim_alone_ms") + "; the victim's reads alone: with the noise x"
                    + ratio(m, "victim_reads_ms", "victim_reads_alone_ms") + ", computing x"
                    + ratio(m, "victim_reads_busy_ms", "victim_reads_alone_ms") + ", getpid x"
                    + ratio(m, "victim_reads_syscalls_ms", "victim_reads_alone_ms");
        }
        return "median of " + describe(h.metrics().get(t.figure()));
    }

    private static String ratio(Map<String, Metric> m, String over, String under) {
        return Json.number(Math.round(m.get(over).median() / m.get(under).median() * 100) / 100.0);
    }

    private static String describe(Metric m) {
        return m.samples() + " samples (median " + Json.number(round(m.median())) + " " + m.unit() + ", mean "
                + Json.number(round(m.mean())) + ", stdev " + Json.number(round(m.stdev())) + ")";
    }

    private static double round(double d) {
        return Math.round(d * 1000) / 1000.0;
    }

    private static String params(WorkloadTwin t) {
        StringBuilder b = new StringBuilder();
        t.params().forEach((k, v) -> b.append(b.isEmpty() ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    ValidationReport report() {
        return new ValidationReport(List.copyOf(results));
    }

    void print(PrintWriter out) {
        out.printf("validate --host: %d workload(s) run on this host and in the model (backend %s, profile %s), "
                + "band +-%d%% of the host's median%n", results.size(), backend, profile, BAND_PERCENT);
        out.printf("host      %s, %d CPUs, hypervisor %s, remote TLB flush by %s%n", host.cpuModel(), host.logicalCpus(),
                host.hypervisor().name(), host.remoteFlush().method());
        if (!calibrated.isEmpty()) {
            StringBuilder b = new StringBuilder();
            calibrated.forEach((k, x) -> b.append(b.isEmpty() ? "" : " ").append(k).append('=').append(Json.number(x)));
            out.printf("calibrated now: %s%n", b);
        }
        out.println();
        report().printTable(out);
        out.flush();
    }

    Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("cpu", host.cpuModel());
        h.put("logical_cpus", host.logicalCpus());
        h.put("hypervisor", host.hypervisor().name());
        h.put("remote_tlb_flush", host.remoteFlush().method());
        m.put("host", h);
        m.put("backend", backend);
        m.put("profile", profile);
        m.put("calibrated_keys", calibrated);
        m.put("band_percent", BAND_PERCENT);
        m.put("experiments", report().toMap().get("experiments"));
        return m;
    }

    String toHtml() {
        // The page of validate, with its heading and its note on validation.md's runs replaced.
        return report().toHtml().replaceFirst("<p>The experiments of validation.md[^\n]*</p>\n", "")
                .replace("<h1>pvtlb validate</h1>", "<h1>pvtlb validate --host</h1>\n<p>"
                + dev.pvtlb.report.Html.escape("This host (" + host.cpuModel() + ", " + host.hypervisor().name()
                        + ") as the published machine; the model runs backend " + backend + " with profile " + profile
                        + "; band +-" + BAND_PERCENT + "%.") + "</p>");
    }
}
