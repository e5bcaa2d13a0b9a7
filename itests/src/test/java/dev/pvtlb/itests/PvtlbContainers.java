package dev.pvtlb.itests;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.HostConfig;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame.OutputType;
import org.testcontainers.images.ImagePullPolicy;
import org.testcontainers.utility.DockerImageName;

/**
 * Runs pvtlb once in a fresh container of {@link PvtlbImage} and collects what it did. Each
 * container has a CPU set, a memory limit, network mode {@code none} (pvtlb needs no network,
 * and no test may send traffic anywhere), no capabilities and no-new-privileges. The report is
 * copied out of the stopped container, which works with a remote engine too (a bind mount
 * would need the engine's filesystem to be this one).
 */
final class PvtlbContainers {
    /**
     * Memory limit per container. A run's JVM peaks near 330 MiB resident (a 256 MiB guest
     * PhysMem off-heap plus heap and JVM), measured with /usr/bin/time on munmap-storm; the JVM
     * sizes its default heap at a quarter of this limit.
     */
    static final long MEMORY_BYTES = 1L << 30;
    /** The report's path inside the container. */
    static final String REPORT = PvtlbImage.OUT + "/report.json";
    /** Never pull: the image is built locally, and there is no registry to pull from. */
    private static final ImagePullPolicy NEVER_PULL = image -> false;

    private PvtlbContainers() {
    }

    /** The CPU set of a test's first container. */
    static String firstCpuset() {
        return "0";
    }

    /**
     * A CPU set unlike {@link #firstCpuset()} where the engine has a second CPU, so that a pair
     * of runs also shows the report does not depend on which host CPU ran the model.
     */
    static String otherCpuset() {
        Integer n = DockerClientFactory.instance().getInfo().getNCPU();
        return n != null && n >= 2 ? "1" : "0";
    }

    static ContainerRun run(List<String> args, String cpuset) {
        return run(args, cpuset, null);
    }

    /**
     * Like {@link #run(List, String)}, with guest's backend-tests jar on pvtlb's class path
     * ({@link PvtlbImage#testBackendsEntrypoint()}), so {@code --backend broken-native} exists.
     */
    static ContainerRun runWithTestBackends(List<String> args, String cpuset) {
        return run(args, cpuset, PvtlbImage.testBackendsEntrypoint());
    }

    private static ContainerRun run(List<String> args, String cpuset, List<String> entrypoint) {
        String image = PvtlbImage.tag();
        try (GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image))) {
            c.withImagePullPolicy(NEVER_PULL)
                    .withNetworkMode("none")
                    .withCommand(args.toArray(String[]::new))
                    .withStartupCheckStrategy(new RunToExit())
                    .withCreateContainerCmdModifier(cmd -> {
                        cmd.getHostConfig()
                                .withCpusetCpus(cpuset)
                                .withMemory(MEMORY_BYTES)
                                .withMemorySwap(MEMORY_BYTES)
                                .withCapDrop(Capability.ALL)
                                .withSecurityOpts(List.of("no-new-privileges"));
                        if (entrypoint != null) {
                            cmd.withEntrypoint(entrypoint.toArray(String[]::new));
                        }
                    });
            c.start();
            InspectContainerResponse info = c.getCurrentContainerInfo();
            InspectContainerResponse.ContainerState state = info.getState();
            // As the engine recorded them, not as this code asked: the tests check them.
            HostConfig hc = info.getHostConfig();
            String memory = hc.getMemory() == null ? "none" : (hc.getMemory() >> 20) + " MiB";
            String limits = "cpuset " + hc.getCpusetCpus() + ", memory " + memory + ", network " + hc.getNetworkMode();
            Long exit = state.getExitCodeLong();
            String stderr = c.getLogs(OutputType.STDERR);
            if (Boolean.TRUE.equals(state.getOOMKilled())) {
                stderr += "\n[the engine OOM-killed this container at its " + (MEMORY_BYTES >> 20) + " MiB limit]\n";
            }
            return new ContainerRun(image, args, limits, exit == null ? -1 : exit, c.getLogs(OutputType.STDOUT),
                    stderr, report(c));
        }
    }

    private static Optional<String> report(GenericContainer<?> c) {
        try {
            return Optional.of(c.copyFileFromContainer(REPORT,
                    in -> new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        } catch (NotFoundException e) {
            return Optional.empty();
        }
    }
}
