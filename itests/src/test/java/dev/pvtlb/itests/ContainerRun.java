package dev.pvtlb.itests;

import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.opentest4j.AssertionFailedError;

/**
 * What one pvtlb container did: its command, exit code, stdout, stderr and the JSON report it
 * wrote (if any). Every check on a run goes through {@link #check}, {@link #report} or
 * {@link #describe}, so a failing test's message carries the container's own output: that is
 * the only place a container's output is kept (the container is removed after the run).
 *
 * @param image the image tag the container ran
 * @param args the pvtlb arguments (after the image's {@code java -jar pvtlb.jar} entry point)
 * @param limits the container's CPU set, memory limit and network mode as the engine reports them
 * @param exitCode the container's exit code
 * @param stdout what pvtlb printed on stdout
 * @param stderr what pvtlb printed on stderr
 * @param json the report file copied out of the container, empty when it wrote none
 */
record ContainerRun(String image, List<String> args, String limits, long exitCode, String stdout, String stderr,
                    Optional<String> json) {
    /** Lines of each stream kept in a failure message: a report table is about 40 lines. */
    private static final int TAIL_LINES = 120;

    /** The parsed report; fails with the container's output when it exited non-zero or wrote no JSON. */
    Report report() {
        check(exitCode == 0, () -> "pvtlb exited with " + exitCode + ", expected 0");
        check(json.isPresent(), () -> "pvtlb exited 0 but wrote no JSON report");
        try {
            return Report.parse(json.orElseThrow());
        } catch (IllegalArgumentException e) {
            throw new AssertionFailedError("unreadable JSON report: " + e.getMessage() + "\n" + describe()
                    + "\n--- JSON ---\n" + json.orElseThrow(), e);
        }
    }

    /** Fails with {@code what} and the container's output unless {@code ok}. */
    void check(boolean ok, Supplier<String> what) {
        if (!ok) {
            throw new AssertionFailedError(what.get() + "\n" + describe());
        }
    }

    /** The command, limits, exit code and the tail of stdout and stderr, for a failure message. */
    String describe() {
        return "container " + image + " [" + limits + "]: pvtlb " + String.join(" ", args)
                + "\nexit code " + exitCode
                + "\n--- container stdout ---\n" + tail(stdout)
                + "--- container stderr ---\n" + tail(stderr)
                + "--- end of container output ---";
    }

    private static String tail(String s) {
        if (s.isEmpty()) {
            return "(empty)\n";
        }
        List<String> lines = s.lines().toList();
        int from = Math.max(0, lines.size() - TAIL_LINES);
        String cut = from > 0 ? "(" + from + " earlier lines cut)\n" : "";
        return cut + String.join("\n", lines.subList(from, lines.size())) + "\n";
    }
}
