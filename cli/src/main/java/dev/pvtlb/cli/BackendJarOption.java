package dev.pvtlb.cli;

import dev.pvtlb.pvops.PvBackends;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * {@code --backend-jar F} of the commands that run a scenario (run, compare, explore): a jar
 * whose META-INF/services/dev.pvtlb.pvops.PvBackend registers designs that are not on the class
 * path, so that {@code --backend}, {@code --vary backend=...} or a scenario file can name them.
 * A jar that does not load (none, not a jar, no backend, a provider that throws) is one line and
 * exit 2, before anything runs.
 */
final class BackendJarOption {
    @Option(names = "--backend-jar", paramLabel = "F", description = "a jar that registers pv_ops backends "
            + "(META-INF/services/dev.pvtlb.pvops.PvBackend), for --backend or the scenario file to name a design not on the class path")
    Path backendJar;

    /** Registers the jar's backends in this JVM; nothing without the option. */
    void register() {
        if (backendJar != null) {
            PvBackends.register(backendJar);
        }
    }
}
