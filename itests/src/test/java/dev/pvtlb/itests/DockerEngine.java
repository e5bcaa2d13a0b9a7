package dev.pvtlb.itests;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;

/**
 * Decides whether the container tests run. With a reachable Docker engine they run. Without one
 * they are skipped (a JUnit assumption) with a loud message, so a developer's {@code mvn verify}
 * still passes on a machine without Docker; but under {@code CI=true} a missing engine fails the
 * build, so that CI can never pass by silently skipping them.
 */
final class DockerEngine {
    static final String HOW_TO_ENABLE = """
            How to run them: `bash .ci/run` installs docker.io and starts an engine itself; or start one by hand \
            (as root): `dockerd --bridge=none --iptables=false --ip-masq=false &` and wait for `docker info`, then \
            `mvn -B verify`. To leave them out on purpose: `mvn -B verify -DskipITs`.""";

    private static boolean bannerShown;

    private DockerEngine() {
    }

    /** Call before every container test (in {@code @BeforeEach}), so that each one counts as skipped. */
    static synchronized void requireOrSkip() {
        String why;
        try {
            if (DockerClientFactory.instance().isDockerAvailable()) {
                return;
            }
            why = "no Docker engine is reachable (looked for DOCKER_HOST, then /var/run/docker.sock)";
        } catch (RuntimeException e) {
            // isDockerAvailable() answers false only for the failures it expects; an engine that
            // answers but cannot be used (say, Testcontainers looking for a "bridge" network that
            // dockerd --bridge=none lacks) throws instead, and is just as unusable.
            why = "the Docker engine cannot be used: " + e;
        }
        boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
        String banner = "\n" + "*".repeat(100) + "\n"
                + (ci ? "CI=true, and " + why + ": the container tests are mandatory in CI.\n"
                      : "CONTAINER TESTS SKIPPED: " + why + ".\n")
                + HOW_TO_ENABLE + "\n" + "*".repeat(100);
        // Printed once as well as carried by each skip: failsafe's console summary shows only a count.
        if (!bannerShown) {
            System.err.println(banner);
            bannerShown = true;
        }
        if (ci) {
            Assertions.fail(banner);
        }
        Assumptions.abort(banner);
    }
}
