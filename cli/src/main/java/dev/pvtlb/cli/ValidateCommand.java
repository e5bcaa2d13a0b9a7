package dev.pvtlb.cli;

import dev.pvtlb.config.Fidelity;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.BenchLimits;
import dev.pvtlb.nativebridge.probe.HostProbe;
import dev.pvtlb.nativebridge.probe.HostReport;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.report.GeneratedBlock;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.validation.FidelityCheck;
import dev.pvtlb.validation.HostValidation;
import dev.pvtlb.validation.Validation;
import dev.pvtlb.validation.ValidationExperiment;
import dev.pvtlb.validation.ValidationOptions;
import dev.pvtlb.validation.ValidationOutcome;
import dev.pvtlb.validation.calibration.CalibratedProfile;
import dev.pvtlb.validation.calibration.Calibration;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb validate}: runs the experiments of validation.md with the current model,
 * as the acceptance check 10-cost-fidelity runs them, and sets each emulated figure against the
 * published one and its band. A failing experiment is a result, not an error: the exit code is 0
 * whenever every experiment ran.
 */
@Command(name = "validate",
        description = {"Run the experiments of validation.md (published results on real machines) and "
                + "print published vs emulated, the band and a pass/fail verdict per figure.",
            "Experiments: concurrent-flush, lazy-tlb, rcu-table-free, smt-dedup, smt-dedup-absolute, arm64-noise, "
                + "kvm-boost, kvm-sched-yield. Each run uses --reps 3 --seed 1."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every experiment ran (a fail verdict is data, not an error; read the table or --json)",
            "2:bad input (unknown --only id, an output file that cannot be written, --sensitivity with no ranges in the profile, "
                + "--keys without --sensitivity or naming no ranged ASSUMED figure, "
                + "--profile, --threads or --rounds without --host)",
            "3:internal error", "4:a run made no progress (the engine's watchdog)"})
final class ValidateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--only", paramLabel = "ID", split = ",", description = "run only these experiments (repeatable, or comma-separated)")
    List<String> only = new ArrayList<>();

    @Option(names = "--json", paramLabel = "FILE", description = "write {\"experiments\": [{\"id\", \"published\", \"emulated\", \"band\", \"verdict\", ...}]}")
    Path json;

    @Option(names = "--html", paramLabel = "FILE", description = "write a self-contained HTML page: published vs emulated per experiment")
    Path html;

    @Option(names = "--markdown", paramLabel = "FILE", description = "write today's figures as Markdown tables; into the block "
            + "between '" + Validation.MARKDOWN_BEGIN + "' and '" + GeneratedBlock.END + "' when FILE has one "
            + "(./pvtlb validate --markdown docs/validation.md refreshes that page), else as the whole file")
    Path markdown;

    @Option(names = "--sensitivity", description = "re-run each experiment with every ASSUMED profile figure at the low and the high "
            + "end of its range, one figure at a time, and say where a figure leaves its band and which keys can flip each experiment")
    boolean sensitivity;

    @Option(names = "--keys", paramLabel = "KEY", split = ",", description = "with --sensitivity: vary only these ASSUMED profile "
            + "figures (repeatable, or comma-separated); each end's line still comes as it is judged, and no experiment is judged "
            + "reproduced, since the other ranges were not tried")
    List<String> keys = new ArrayList<>();

    @Option(names = "--steady", description = "re-run every run with its measurement window doubled (ops or host_slices x2) and "
            + "say per figure whether it is steady: moved by less than a quarter of its band's width (about 3x the time)")
    boolean steady;

    @Option(names = "--fidelity", paramLabel = "LEVEL", description = "exact or fast (default fast; docs/fidelity.md): the timing "
            + "detail of every run (a run's own --set fidelity= comes first)")
    String fidelity = "fast";

    @Option(names = "--fidelity-check", description = "run every experiment at both levels and print each figure at exact and at fast, "
            + "the difference and whether it is within the tolerance (%% 1 pp, x 2%%, ns 3%%), and both verdicts; --json, --html and "
            + "--markdown write that table")
    boolean fidelityCheck;

    @Option(names = "--parallel", paramLabel = "N", description = "runs at once (default: the number of cores)")
    Integer parallel;

    @Option(names = "--quiet", description = "no progress bar on stderr")
    boolean quiet;

    @Option(names = "--reps", paramLabel = "N", description = "repetitions of every run (default 3, the acceptance check's): more "
            + "narrow the standard errors and may resolve a verdict marked * (1 to 1000)")
    Integer reps;

    @Option(names = "--host", description = "validate against this host instead: run munmap-storm, mprotect-noise and "
            + "tlb-flush2 here and in the model (the backend the probe detects), band +-25%% of the host's median")
    boolean host;

    @Option(names = "--profile", paramLabel = "P", description = "with --host: the model's profile, built-in or file "
            + "(default: calibrate this host first)")
    String profile;

    @Option(names = "--threads", paramLabel = "N", description = "with --host: threads of munmap-storm and tlb-flush2 "
            + "(default: one per CPU of --cpus)")
    Integer threads;

    @Option(names = "--rounds", paramLabel = "N", description = "with --host: rounds of calibration (unless --profile), "
            + "host bench and model, each figure the median over them (default " + HostValidation.DEFAULT_ROUNDS + ", at most "
            + HostValidation.MAX_ROUNDS + ")")
    Integer rounds;

    @Mixin
    HostRunOptions hostRun;

    @Override
    public Integer call() throws InterruptedException, IOException {
        if (host) {
            if (reps != null) {
                throw new ModelException("--reps does not go with --host (its rounds are --rounds)");
            }
            return callHost();
        }
        if (reps != null && (reps < 1 || reps > 1000)) {
            throw new ModelException("--reps must be between 1 and 1000, got " + reps);
        }
        if (profile != null || threads != null || rounds != null) {
            throw new ModelException((profile != null ? "--profile" : threads != null ? "--threads" : "--rounds") + " goes with --host");
        }
        List<ValidationExperiment> experiments = Validation.select(List.copyOf(new LinkedHashSet<>(only)));
        ReportFile.check(json, "--json");
        ReportFile.check(html, "--html");
        ReportFile.check(markdown, "--markdown");
        int threads = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
        if (threads < 1 || threads > 1024) {
            throw new ModelException("--parallel must be between 1 and 1024, got " + threads);
        }
        Fidelity level = Fidelity.parse(fidelity);
        if (fidelityCheck) {
            if (reps != null) {
                throw new ModelException("--reps does not go with --fidelity-check");
            }
            return callFidelityCheck(experiments, threads);
        }
        PrintWriter out = spec.commandLine().getOut();
        ValidationOutcome outcome = Validation.run(experiments, new ValidationOptions(level, threads, sensitivity, steady,
                new ProgressBar(spec.commandLine().getErr(), quiet), reps != null ? reps : ValidationOptions.DEFAULT_REPS,
                List.copyOf(new LinkedHashSet<>(keys)), line -> {
                    out.println(line);
                    out.flush();
                }));
        outcome.print(out);
        if (json != null) {
            ReportFile.write(json, "--json", outcome.json());
        }
        if (markdown != null) {
            ReportFile.write(markdown, "--markdown", outcome.markdownInto(GeneratedBlock.read(markdown, "--markdown")));
        }
        if (html != null) {
            ReportFile.write(html, "--html", outcome.toHtml());
        }
        return 0;
    }

    /** {@code --fidelity-check}: both levels side by side, instead of the validation table. */
    private Integer callFidelityCheck(List<ValidationExperiment> experiments, int threads) throws InterruptedException, IOException {
        if (sensitivity || steady || !keys.isEmpty()) {
            throw new ModelException((sensitivity ? "--sensitivity" : steady ? "--steady" : "--keys") + " does not go with --fidelity-check");
        }
        FidelityCheck check = Validation.fidelityCheck(experiments, threads, new ProgressBar(spec.commandLine().getErr(), quiet));
        check.print(spec.commandLine().getOut());
        if (json != null) {
            ReportFile.write(json, "--json", check.json());
        }
        if (html != null) {
            ReportFile.write(html, "--html", check.toHtml());
        }
        if (markdown != null) {
            ReportFile.write(markdown, "--markdown", check.markdownInto(GeneratedBlock.read(markdown, "--markdown")));
        }
        return 0;
    }

    /** {@code --host}: every check before the first measurement, then rounds of calibration (unless --profile) and twins. */
    private Integer callHost() throws IOException {
        if (!only.isEmpty() || sensitivity || steady || markdown != null || !keys.isEmpty()) {
            throw new ModelException((sensitivity ? "--sensitivity" : steady ? "--steady" : markdown != null ? "--markdown"
                    : !keys.isEmpty() ? "--keys" : "--only")
                    + " does not go with --host");
        }
        ReportFile.check(json, "--json");
        ReportFile.check(html, "--html");
        NativeOs os = hostRun.os();
        int[] cpus = hostRun.cpus(os);
        int n = threads != null ? threads : cpus.length;
        HostRunOptions.checkThreads(n);
        int roundCount = rounds != null ? rounds : HostValidation.DEFAULT_ROUNDS;
        if (roundCount < 1 || roundCount > HostValidation.MAX_ROUNDS) {
            throw new ModelException("--rounds " + roundCount + ": give 1.." + HostValidation.MAX_ROUNDS);
        }
        BenchLimits limits = hostRun.limits();
        if (profile != null) {
            Profile.load(profile);
        }
        HostReport report = new HostProbe().probe();
        Supplier<CalibratedProfile> calibrate = () -> Calibration.calibrate(os, Math.max(1, cpus.length - 1), cpus, limits);
        HostValidation v = HostValidation.run(os, report, cpus, n, roundCount, profile, calibrate);
        v.print(spec.commandLine().getOut());
        if (json != null) {
            ReportFile.write(json, "--json", Json.write(v.toMap()));
        }
        if (html != null) {
            ReportFile.write(html, "--html", v.toHtml());
        }
        return 0;
    }
}
