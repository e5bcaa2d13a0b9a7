package dev.pvtlb.cli;

import static dev.pvtlb.cli.HostileInputTest.assertRejected;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Every option that names a file to write (--json, --csv, --html, --out, --trace), given a path
 * that cannot be written: a directory, a path under a missing directory, a path under a regular
 * file, a path the kernel refuses (/sys, even to root). Each must be refused with exit 2 and one
 * line before the command's work starts, never a stack trace.
 */
class HostileOutputPathTest {
    private static Path dir;
    private static Path study;
    private static Path regular;

    @BeforeContainer
    static void setUp() throws IOException {
        dir = Files.createTempDirectory("pvtlb-hostile-out");
        study = Files.writeString(dir.resolve("study.yaml"), "scenario: munmap-storm\nset: {ops: 1, threads: 2, vcpus: 2}\n");
        regular = Files.writeString(dir.resolve("regular"), "keep me");
    }

    @AfterContainer
    static void tearDown() throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A command line with {@code PATH} where the output path goes; each would otherwise do real work. */
    static final List<String> COMMANDS = List.of(
            "run munmap-storm --set ops=1 --set threads=2 --quiet --json PATH",
            "run munmap-storm --set ops=1 --set threads=2 --quiet --csv PATH",
            "run munmap-storm --set ops=1 --set threads=2 --quiet --html PATH",
            "compare munmap-storm --vary lazy=off,skip --set ops=1 --quiet --json PATH",
            "compare munmap-storm --vary lazy=off,skip --set ops=1 --quiet --csv PATH",
            "compare munmap-storm --vary lazy=off,skip --set ops=1 --quiet --html PATH",
            "demo --html PATH",
            "bench --only scale-16 --repeat 1 --json PATH",
            "explore gup-fast-vs-free --budget 1 --trace PATH",
            "host probe --json PATH",
            "host bench munmap-storm --iterations 1 --json PATH",
            "host compare munmap-storm --threads 1 --iterations 1 --json PATH",
            "calibrate --iterations 1 --out PATH",
            "validate --only arm64-noise --quiet --json PATH",
            "validate --only arm64-noise --quiet --html PATH",
            "sweep STUDY --out PATH");

    enum Bad { DIRECTORY, MISSING_DIRECTORY, UNDER_A_FILE, KERNEL_REFUSES, NON_EMPTY_FILE_AS_DIRECTORY }

    static Path path(Bad b) {
        return switch (b) {
            case DIRECTORY -> dir;
            case MISSING_DIRECTORY -> dir.resolve("no/such/dir/out.json");
            case UNDER_A_FILE -> regular.resolve("out.json");
            case KERNEL_REFUSES -> Path.of("/sys/pvtlb-out.json");
            case NON_EMPTY_FILE_AS_DIRECTORY -> regular;
        };
    }

    static List<String> args(String command, Path out) {
        List<String> a = new ArrayList<>();
        for (String w : command.split(" ")) {
            a.add(w.equals("PATH") ? out.toString() : w.equals("STUDY") ? study.toString() : w);
        }
        return a;
    }

    /** The bad paths for a command: sweep --out wants a directory, every other option a file. */
    static List<Bad> badFor(String command) {
        return command.startsWith("sweep")
                ? List.of(Bad.MISSING_DIRECTORY, Bad.UNDER_A_FILE, Bad.KERNEL_REFUSES, Bad.NON_EMPTY_FILE_AS_DIRECTORY)
                : List.of(Bad.DIRECTORY, Bad.MISSING_DIRECTORY, Bad.UNDER_A_FILE, Bad.KERNEL_REFUSES);
    }

    record Case(String command, Bad bad) { }

    @Property(tries = 200)
    void anOutputPathThatCannotBeWrittenIsRefusedFirst(@ForAll("cases") Case c) throws IOException {
        List<String> a = args(c.command(), path(c.bad()));
        assertRejected(c.bad() + ": " + a, a.toArray(String[]::new));
        assertEquals("keep me", Files.readString(regular), "a file in the way is left alone");
        assertFalse(Files.exists(dir.resolve("no")), "no directory was made");
    }

    @Provide
    Arbitrary<Case> cases() {
        return Arbitraries.of(COMMANDS).flatMap(c -> Arbitraries.of(badFor(c)).map(b -> new Case(c, b)));
    }

    @Example
    void theRefusalNamesTheOptionAndWhy() {
        MainTest.Result r = MainTest.pvtlb("run", "munmap-storm", "--quiet", "--json", dir.resolve("none/x.json").toString());
        assertEquals(2, r.code());
        assertEquals("pvtlb: --json " + dir.resolve("none/x.json") + ": no such directory " + dir.resolve("none") + "\n",
                r.err());
        MainTest.Result s = MainTest.pvtlb("run", "munmap-storm", "--quiet", "--csv", "/sys/x.csv");
        assertEquals("pvtlb: --csv /sys/x.csv: cannot write: permission denied\n", s.err());
    }
}
