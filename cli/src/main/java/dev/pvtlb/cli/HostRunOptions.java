package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.nativebridge.NativeOs;
import dev.pvtlb.nativebridge.hostbench.BenchLimits;
import picocli.CommandLine.Option;

/** Options of the commands that measure the real host: which CPUs, how many rounds, which native binding. */
final class HostRunOptions {
    /** Enough to bound a typo, far above what a calibration needs. */
    static final int MAX_ITERATIONS = 100_000;

    @Option(names = "--cpus", paramLabel = "LIST",
            description = "CPUs to pin to, the initiator on the first, e.g. 0,1 (default: 0..online-1)")
    String cpus;

    /** Five times the host bench default: medians of munmap on a shared or virtualized host settle by then. */
    @Option(names = "--iterations", paramLabel = "N", description = "rounds of each host measurement (default 1000)")
    int iterations = 1000;

    @Option(names = "--bridge", paramLabel = "ffm|jna|auto", description = "native binding (default auto)")
    String bridge = "auto";

    NativeOs os() {
        return NativeOs.select(bridge);
    }

    int[] cpus(NativeOs os) {
        return HostCpus.parse(cpus, os.onlineCpus());
    }

    /** The default limits with these rounds: same mapping size and time bound as {@code pvtlb host bench}. */
    BenchLimits limits() {
        if (iterations < 1 || iterations > MAX_ITERATIONS) {
            throw new ModelException("--iterations must be between 1 and " + MAX_ITERATIONS + ", got " + iterations);
        }
        BenchLimits d = BenchLimits.defaults();
        return new BenchLimits(iterations, d.pages(), d.maxRun());
    }

    static void checkThreads(int threads) {
        if (threads < 1 || threads > 1024) {
            throw new ModelException("--threads must be between 1 and 1024, got " + threads);
        }
    }
}
