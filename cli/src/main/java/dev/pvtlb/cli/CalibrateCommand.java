package dev.pvtlb.cli;

import dev.pvtlb.profile.Profile;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.BenchLimits;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.validation.calibration.Calibration;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb calibrate}: measure this host's primitive costs and write them as a profile
 * that {@code pvtlb run --set profile=FILE} takes.
 */
@Command(name = "calibrate", description = "Measure this host's primitive costs and write a profile (YAML) extending "
        + Profile.DEFAULT + "; without --out it goes to stdout.")
final class CalibrateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--out", paramLabel = "FILE", description = "write the profile here")
    Path out;

    @Option(names = "--threads", paramLabel = "N",
            description = "remote threads in the shootdown measurements (default: one per CPU of --cpus but the first)")
    Integer threads;

    @Mixin
    HostRunOptions host;

    @Override
    public Integer call() throws IOException {
        ReportFile.check(out, "--out");
        NativeOs os = host.os();
        int[] cpus = host.cpus(os);
        int remote = threads != null ? threads : Math.max(1, cpus.length - 1);
        HostRunOptions.checkThreads(remote);
        BenchLimits limits = host.limits();
        String yaml = Calibration.calibrate(os, remote, cpus, limits).yaml();
        if (out == null) {
            spec.commandLine().getOut().print(yaml);
            spec.commandLine().getOut().flush();
        } else {
            ReportFile.write(out, "--out", yaml);
            spec.commandLine().getOut().printf("wrote %s (use it: pvtlb run SCENARIO --set profile=%s)%n", out, out);
            spec.commandLine().getOut().flush();
        }
        return 0;
    }
}
