package dev.pvtlb.itests;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.opentest4j.AssertionFailedError;

/**
 * Per-backend container tests: each row of {@link BackendTable} runs {@code pvtlb run} in its
 * own container, and its report must show the row's counters; a second container with the same
 * seed must write the same JSON, {@code host_timing} aside.
 */
class BackendContainerIT {
    /**
     * The first container run of each backend, shared by both tests: a run costs seconds, and
     * the determinism test needs one anyway.
     */
    private static final Map<String, ContainerRun> FIRST = new ConcurrentHashMap<>();

    // Per test, not @BeforeAll: a class-level abort reports "Tests run: 0", hiding the skip.
    @BeforeEach
    void engine() {
        DockerEngine.requireOrSkip();
    }

    static List<Backend> backends() {
        return BackendTable.ALL;
    }

    private static ContainerRun first(Backend b) {
        return FIRST.computeIfAbsent(b.name(), n -> PvtlbContainers.run(b.runArgs(PvtlbContainers.REPORT),
                PvtlbContainers.firstCpuset()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void reportShowsTheBackendsCounters(Backend b) {
        ContainerRun run = first(b);
        run.check(run.limits().equals("cpuset 0, memory 1024 MiB, network none"), () -> "the engine applied " + run.limits());
        verify(b, run);
    }

    /** Everything a row demands of its container's report; a failure carries the container's output. */
    static void verify(Backend b, ContainerRun run) {
        Report r = run.report();
        run.check(r.text("backend").equals(b.name()), () -> "report names backend " + r.text("backend"));
        run.check(r.text("scenario").equals(b.scenario()), () -> "report names scenario " + r.text("scenario"));
        run.check(r.number("seed") == b.seed(), () -> "report has seed " + r.number("seed"));
        List<String> broken = b.rules().stream().flatMap(rule -> rule.violation(r).stream()).toList();
        run.check(broken.isEmpty(), () -> b.name() + " report breaks " + broken.size() + " rule(s): "
                + String.join("; ", broken) + "\ncounters: " + r.section("counters"));
        // A clean run prints nothing on stderr: a JVM warning there (a missing library, an
        // unsupported flag) would mean the image is not what the launcher runs on a host.
        run.check(run.stderr().isEmpty(), () -> "pvtlb printed on stderr");
        run.check(r.hazards().isEmpty(), () -> "the run reported hazards: " + r.hazards());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("backends")
    void twoContainersWithOneSeedWriteTheSameJson(Backend b) {
        ContainerRun one = first(b);
        ContainerRun two = PvtlbContainers.run(b.runArgs(PvtlbContainers.REPORT), PvtlbContainers.otherCpuset());
        String a = one.report().withoutHostTiming();
        String c = two.report().withoutHostTiming();
        if (!a.equals(c)) {
            throw new AssertionFailedError(b.name() + ": two containers with seed " + b.seed()
                    + " wrote different JSON (host_timing removed)\n" + Report.firstDifference(a, c)
                    + "\nfirst " + one.describe() + "\nsecond " + two.describe(), a, c);
        }
    }
}
