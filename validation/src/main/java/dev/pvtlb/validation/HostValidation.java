package dev.pvtlb.validation;

import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.HostBenchResult;
import dev.pvtlb.nativebridge.hostbench.Metric;
import dev.pvtlb.nativebridge.probe.HostReport;
import dev.pvtlb.report.Json;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.validation.calibration.CalibratedProfile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code pvtlb validate --host}: this host as the published machine. Each workload twin runs on
 * the host (its median is the "published" figure) and in the model with the backend whose
 * mechanism the probe found and the given or freshly calibrated profile; the emulated figure
 * passes within {@value #BAND_PERCENT}% of the host's.
 *
 * <p>It runs in rounds. A round calibrates (without {@code --profile}), then runs every twin on
 * the host and in the model with that round's calibration, so each emulated figure is predicted
 * from primitives measured seconds before the host figure it is set against, on a host in the
 * same state. A cloud guest's costs drift by a third within minutes (munmap 34.6 .. 52.0 us over
 * six runs in one hour), and depend on what ran just before (the munmap-storm twin's munmap: 41
 * .. 67 us right after a calibration, 70 .. 94 us with none before it; docs/validation.md). Both
 * columns are the median over the rounds; the standard error line gives the emulated figure's
 * spread over them.
 */
public final class HostValidation {
    static final int BAND_PERCENT = 25;
    /** Rounds when none are asked for. */
    public static final int DEFAULT_ROUNDS = 3;
    /** The most rounds a validation runs: each calibrates and measures for several seconds. */
    public static final int MAX_ROUNDS = 25;

    /** One round of one twin: the host's bench and its figure, and the model's figure. */
    private record Round(HostBenchResult bench, double host, double emulated) {
    }

    private final HostReport host;
    private final String backend;
    /** The profile given with --profile, or null when each round calibrates its own. */
    private final String profile;
    private final int rounds;
    private final List<Map<String, Double>> calibrations = new ArrayList<>();
    private final List<ValidationResult> results = new ArrayList<>();

    private HostValidation(HostReport host, String backend, String profile, int rounds) {
        this.host = host;
        this.backend = backend;
        this.profile = profile;
        this.rounds = rounds;
    }

    /**
     * Runs every twin with {@code threads} threads on {@code cpus}, {@code rounds} times. With
     * {@code profile} (a built-in name or a file) every round's model runs that profile;
     * without it, {@code calibrate} gives each round its own (its file lives for that round).
     */
    public static HostValidation run(NativeOs os, HostReport host, int[] cpus, int threads, int rounds, String profile,
                              Supplier<CalibratedProfile> calibrate) throws IOException {
        HostValidation v = new HostValidation(host, DetectedBackend.of(host.remoteFlush().method()), profile, rounds);
        List<WorkloadTwin> twins = WorkloadTwin.NAMES.stream().map(n -> WorkloadTwin.of(n, threads))
                .filter(t -> cpus.length >= t.minCpus()).toList();
        List<List<Round>> byTwin = new ArrayList<>();
        twins.forEach(t -> byTwin.add(new ArrayList<>()));
        Map<String, Double> fixed = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            Path file = null;
            try {
                String used = profile;
                if (used == null) {
                    CalibratedProfile c = calibrate.get();
                    file = Files.createTempFile("pvtlb-calibrated-", ".yaml");
                    Files.writeString(file, c.yaml(), StandardCharsets.UTF_8);
                    used = file.toString();
                    v.calibrations.add(c.values());
                }
                for (int i = 0; i < twins.size(); i++) {
                    WorkloadTwin t = twins.get(i);
                    HostBenchResult h = t.runOnHost(os, cpus, WorkloadTwin.LIMITS);
                    String p = used;
                    // A given profile predicts the same figure every round: the model is deterministic.
                    double emulated = profile != null
                            ? fixed.computeIfAbsent(t.name(), k -> t.emulatedFigure(cpus.length, s -> v.model(s, p)))
                            : t.emulatedFigure(cpus.length, s -> v.model(s, p));
                    byTwin.get(i).add(new Round(h, t.hostFigure(h), emulated));
                }
            } finally {
                if (file != null) {
                    Files.deleteIfExists(file);
                }
            }
        }
        for (int i = 0; i < twins.size(); i++) {
            v.results.add(v.experiment(cpus, twins.get(i), byTwin.get(i)));
        }
        return v;
    }

    /** The profile the reports name: the one given, or that each round calibrated its own. */
    private String profileLabel() {
        return profile != null ? profile : "calibrated each round";
    }

    private Scenario model(Scenario s, String usedProfile) {
        return s.backend(backend).set("profile", usedProfile);
    }

    private ValidationResult experiment(int[] cpus, WorkloadTwin t, List<Round> rounds) {
        double hostFigure = median(rounds.stream().mapToDouble(Round::host).toArray());
        double[] emulatedAll = rounds.stream().mapToDouble(Round::emulated).toArray();
        double emulated = median(emulatedAll);
        FigureUnit unit = t.unit().equals("x") ? FigureUnit.RATIO : FigureUnit.NS;
        HostBenchResult last = rounds.getLast().bench();
        ValidationFigure f = new ValidationFigure(t.figure(), unit, hostFigure, perRound(unit, rounds) + "; last round: "
                + spread(t, last), Band.around(hostFigure, BAND_PERCENT / 100.0), runs -> emulated);
        String source = "this host: " + host.cpuModel() + ", " + host.logicalCpus() + " CPUs, hypervisor "
                + host.hypervisor().name() + ", remote flush by " + host.remoteFlush().method();
        String setup = t.shape() + "; host on cpus " + last.cpus() + "; emulated with backend " + backend + ", profile "
                + profileLabel() + ", vcpus=" + t.vcpus(cpus.length) + " " + params(t) + "; " + rounds.size() + " round(s)";
        ValidationExperiment e = new ValidationExperiment("host-" + t.name(), source, setup, profile, List.of(), List.of(f), null);
        return new ValidationResult(e, List.of(new ValidationResult.Figure(f, emulated, standardError(emulatedAll))), null);
    }

    /** Each round's host and emulated figure, in the order they ran. */
    private static String perRound(FigureUnit unit, List<Round> rounds) {
        StringBuilder b = new StringBuilder("median over " + rounds.size() + " round(s), host / emulated each round:");
        for (Round r : rounds) {
            b.append(' ').append(unit.format(r.host())).append(" / ").append(unit.format(r.emulated())).append(',');
        }
        b.setLength(b.length() - 1);
        return b.toString();
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    /** The sample standard deviation over the rounds divided by their number's root; NaN for one round. */
    static double standardError(double[] xs) {
        int n = xs.length;
        if (n < 2) {
            return Double.NaN;
        }
        double mean = Arrays.stream(xs).average().orElseThrow();
        double ss = Arrays.stream(xs).map(x -> (x - mean) * (x - mean)).sum();
        return Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
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

    /** Each key a calibration set, at its median over the rounds (keys in the first round's order). */
    private Map<String, Double> calibratedMedians() {
        Map<String, Double> m = new LinkedHashMap<>();
        if (!calibrations.isEmpty()) {
            for (String k : calibrations.getFirst().keySet()) {
                m.put(k, median(values(k)));
            }
        }
        return m;
    }

    private double range(String key, boolean low) {
        double[] v = values(key);
        return low ? Arrays.stream(v).min().orElseThrow() : Arrays.stream(v).max().orElseThrow();
    }

    /** A key's value in every round that set it (a calibration leaves unmeasurable keys out). */
    private double[] values(String key) {
        return calibrations.stream().filter(c -> c.containsKey(key)).mapToDouble(c -> c.get(key)).toArray();
    }

    ValidationReport report() {
        return new ValidationReport(List.copyOf(results), "from the emulated figure's spread over the rounds");
    }

    /** The text {@code pvtlb validate --host} prints. */
    public void print(PrintWriter out) {
        out.printf("validate --host: %d workload(s) run on this host and in the model (backend %s, profile %s), "
                + "band +-%d%% of the host's median%n", results.size(), backend, profileLabel(), BAND_PERCENT);
        out.printf("host      %s, %d CPUs, hypervisor %s, remote TLB flush by %s%n", host.cpuModel(), host.logicalCpus(),
                host.hypervisor().name(), host.remoteFlush().method());
        if (!calibrations.isEmpty()) {
            StringBuilder b = new StringBuilder();
            calibratedMedians().forEach((k, x) -> b.append(b.isEmpty() ? "" : " ").append(k).append('=').append(Json.number(x))
                    .append(" (").append(Json.number(range(k, true))).append("..").append(Json.number(range(k, false))).append(')'));
            out.printf("calibrated each round, median (low..high) over %d: %s%n", calibrations.size(), b);
        }
        out.println();
        report().printTable(out);
        out.flush();
    }

    /** What {@code --json} writes. */
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("cpu", host.cpuModel());
        h.put("logical_cpus", host.logicalCpus());
        h.put("hypervisor", host.hypervisor().name());
        h.put("remote_tlb_flush", host.remoteFlush().method());
        m.put("host", h);
        m.put("backend", backend);
        m.put("profile", profileLabel());
        m.put("rounds", rounds);
        m.put("calibrated_keys", calibratedMedians());
        m.put("calibrations", calibrations);
        m.put("band_percent", BAND_PERCENT);
        m.put("experiments", report().toMap().get("experiments"));
        return m;
    }

    /** What {@code --html} writes. */
    public String toHtml() {
        // The page of validate, with its heading and its note on validation.md's runs replaced.
        return report().toHtml().replaceFirst("<p>The experiments of validation.md[^\n]*</p>\n", "")
                .replace("<h1>pvtlb validate</h1>", "<h1>pvtlb validate --host</h1>\n<p>"
                + dev.pvtlb.report.Html.escape("This host (" + host.cpuModel() + ", " + host.hypervisor().name()
                        + ") as the published machine; the model runs backend " + backend + " with profile " + profileLabel()
                        + "; band +-" + BAND_PERCENT + "%.") + "</p>");
    }
}
