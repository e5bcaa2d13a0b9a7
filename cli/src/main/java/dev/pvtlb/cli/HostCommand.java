package dev.pvtlb.cli;

import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.BenchLimits;
import dev.pvtlb.nativebridge.hostbench.HostBench;
import dev.pvtlb.nativebridge.hostbench.HostBenchResult;
import dev.pvtlb.nativebridge.probe.HostProbe;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.validation.WorkloadTwin;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code pvtlb host probe|bench|compare}: the real machine pvtlb runs on, through the native bridge. */
@Command(name = "host", description = "Probe and measure the real host.",
        subcommands = {HostCommand.Probe.class, HostCommand.Bench.class, HostCompareCommand.class})
final class HostCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "probe", description = "CPU, topology, hypervisor, remote-flush method and TLB counters of this host.")
    static final class Probe implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--json", paramLabel = "FILE", description = "also write the report as JSON")
        Path json;

        @Override
        public Integer call() throws IOException {
            ReportFile.check(json, "--json");
            var report = new HostProbe().probe();
            spec.commandLine().getOut().print(report.render());
            spec.commandLine().getOut().flush();
            if (json != null) {
                ReportFile.write(json, "--json", Json.write(report.toMap()));
            }
            return 0;
        }
    }

    @Command(name = "bench", description = "Run a real shootdown benchmark: munmap-storm, mprotect-noise and tlb-flush2 run their emulated "
            + "workload's program (the same threads, sizes and sequence); madvise-touch is a calibration shape of its own.")
    static final class Bench implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "BENCH")
        String bench;

        @Option(names = "--threads", paramLabel = "N", description = "threads (default 2)")
        int threads = 2;

        @Option(names = "--cpus", paramLabel = "LIST", description = "CPUs to pin to, e.g. 0,1 (default: 0..online-1)")
        String cpus;

        @Option(names = "--bridge", paramLabel = "ffm|jna|auto", description = "native binding (default auto)")
        String bridge = "auto";

        @Option(names = "--json", paramLabel = "FILE", description = "write the result as JSON")
        Path json;

        @Override
        public Integer call() throws IOException {
            ReportFile.check(json, "--json");
            NativeOs os = NativeOs.select(bridge);
            HostRunOptions.checkThreads(threads);
            int[] cpuList = HostCpus.parse(cpus, os.onlineCpus());
            var out = spec.commandLine().getOut();
            HostBenchResult r;
            if (WorkloadTwin.NAMES.contains(bench)) {
                // The emulated workload's own program, so that host compare lines up like with like.
                WorkloadTwin twin = WorkloadTwin.of(bench, threads);
                r = twin.runOnHost(os, cpuList, WorkloadTwin.LIMITS);
                out.printf("shape            %s%n", twin.shape());
                out.printf("figure           %s %s %s%n", twin.figure(), Json.number(Math.round(twin.hostFigure(r) * 1000) / 1000.0), twin.unit());
            } else {
                r = new HostBench(os, new HostProbe()).byName(bench, threads, cpuList, BenchLimits.defaults());
            }
            out.printf("host %s via %s: %d threads on cpus %s, %d iterations%n", r.benchmark(), r.backend(),
                    r.threads(), r.cpus(), r.iterations());
            r.toMap().forEach((k, v) -> {
                if (k.equals("metrics") || k.equals("counter_deltas") || k.equals("absent_counters")) {
                    out.printf("%-16s %s%n", k, v);
                }
            });
            if (json != null) {
                ReportFile.write(json, "--json", Json.write(r.toMap()));
            }
            return 0;
        }
    }
}
