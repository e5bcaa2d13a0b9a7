package dev.pvtlb.itests;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.WaitContainerResultCallback;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import org.testcontainers.containers.startupcheck.StartupCheckStrategy;

/**
 * Start-up check for a one-shot pvtlb container: "started" means "ran to its end", whatever its
 * exit code. Testcontainers' own one-shot checks throw on a non-zero exit and keep only their
 * log, but the tests need the exit code, stdout, stderr and the report of a failed run too, to
 * put them in the failure message ({@link ContainerRun}).
 */
final class RunToExit extends StartupCheckStrategy {
    /**
     * Not a speed check: a guard so that a hung container ends the test instead of the CI job.
     * A run of a built-in scenario takes seconds.
     */
    private static final long HANG_GUARD_MINUTES = 10;

    @Override
    public boolean waitUntilStartupSuccessful(DockerClient docker, String containerId) {
        // Blocks on the engine's wait endpoint rather than polling the container's state.
        try (WaitContainerResultCallback wait = docker.waitContainerCmd(containerId).start()) {
            wait.awaitStatusCode(HANG_GUARD_MINUTES, TimeUnit.MINUTES);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return true;
    }

    @Override
    public StartupStatus checkStartupState(DockerClient docker, String containerId) {
        return Boolean.TRUE.equals(getCurrentState(docker, containerId).getRunning())
                ? StartupStatus.NOT_YET_KNOWN : StartupStatus.SUCCESSFUL;
    }
}
