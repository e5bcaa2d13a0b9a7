package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Thousands of malformed or hostile scenario files and argument lists: every one must end in
 * exit code 2 with a single line on stderr, never a stack trace or an internal error (exit 3).
 * Every generated input carries at least one defect that is caught before a run starts, so no
 * case runs the model for long.
 */
class HostileInputTest {
    private static Path dir;

    @BeforeContainer
    static void makeDir() throws IOException {
        dir = Files.createTempDirectory("pvtlb-fuzz");
    }

    @AfterContainer
    static void removeDir() throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    static void assertRejected(String what, String... args) {
        MainTest.Result r = MainTest.pvtlb(args);
        String err = r.err().strip();
        assertEquals(2, r.code(), what + " -> exit " + r.code() + ": " + err);
        assertFalse(err.isEmpty(), what);
        assertEquals(1, err.lines().count(), what + " -> " + err);
        assertTrue(err.startsWith("pvtlb: "), what + " -> " + err);
        assertFalse(err.contains("Exception") || err.contains("\tat "), what + " -> " + err);
    }

    // ---------------------------------------------------------------- scenario files

    @Property(tries = 1500)
    void hostileScenarioFilesAreRejectedInOneLine(@ForAll("files") byte[] content) throws IOException {
        Path f = Files.createTempFile(dir, "s", ".yaml");
        Files.write(f, content);
        try {
            assertRejected(new String(content, java.nio.charset.StandardCharsets.ISO_8859_1), "run", f.toString(), "--quiet");
        } finally {
            Files.deleteIfExists(f);
        }
    }

    /** A small valid base to start from (a cheap run), then one defect. */
    static final String BASE = "workload: munmap-storm\nparams:\n  ops: 1\n  threads: 2\nvcpus: 2\nseed: 3\n";

    @Provide
    Arbitrary<byte[]> files() {
        Arbitrary<String> garbage = Arbitraries.strings().all().ofMinLength(0).ofMaxLength(200);
        Arbitrary<byte[]> binary = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(300)
                .map(b -> { b[0] = (byte) 0xff; return b; });
        Arbitrary<String> deep = Arbitraries.integers().between(17, 50_000).flatMap(n -> Arbitraries.of(
                "workload: munmap-storm\nparams: " + "[".repeat(n),
                "{".repeat(n) + "}".repeat(n),
                deepBlock(Math.min(n, 2000)),
                "- ".repeat(n) + "x"));
        // seed, quantum and ops take any (or large) integers: for them only non-integers are defects.
        Arbitrary<String> badValue = Combinators.combine(Arbitraries.of(KEYS), badScalars())
                .filter((k, v) -> !(v.matches("-?\\d+") && List.of("seed", "quantum", "ops").contains(k)))
                .as((k, v) -> BASE.replace("seed: 3\n", "") + k + ": " + v + "\n");
        Arbitrary<String> wrongShape = Combinators.combine(Arbitraries.of(KEYS), Arbitraries.of("[1, 2]", "{a: 1}", "\n  - x\n  - y",
                "\n  nested:\n    deeper: 1")).as((k, v) -> "workload: munmap-storm\n" + k + ": " + v + "\n");
        Arbitrary<String> unknownKey = Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(12)
                .filter(k -> !KEYS.contains(k) && !k.equals("workload") && !k.equals("params") && !k.equals("knobs"))
                .map(k -> BASE + k + ": 1\n");
        Arbitrary<String> badSection = Combinators.combine(Arbitraries.of("params", "knobs", "host", "topology"),
                Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(10), badScalars())
                .as((sec, k, v) -> BASE.replace("params:\n  ops: 1\n  threads: 2\n", "") + sec + ":\n  " + k + "x: " + v + "\n");
        Arbitrary<String> aliases = Arbitraries.integers().between(1, 30).map(HostileInputTest::laughs);
        Arbitrary<String> dup = Arbitraries.of(KEYS).map(k -> BASE + "seed: 4\n");
        Arbitrary<String> noWorkload = Arbitraries.of("seed: 1\n", "params:\n  ops: 1\n", "", "# only a comment\n", "---\n", "[]\n",
                "just a string\n", "42\n");
        return Arbitraries.oneOf(garbage.map(HostileInputTest::utf8).map(s -> s.length == 0 ? new byte[] {'['} : s),
                binary, deep.map(HostileInputTest::utf8), badValue.map(HostileInputTest::utf8),
                wrongShape.map(HostileInputTest::utf8), unknownKey.map(HostileInputTest::utf8),
                badSection.map(HostileInputTest::utf8), aliases.map(HostileInputTest::utf8),
                dup.map(HostileInputTest::utf8), noWorkload.map(HostileInputTest::utf8))
                .filter(HostileInputTest::notAccidentallyValid);
    }

    static final List<String> KEYS = List.of("vcpus", "memory", "reps", "seed", "quantum", "profile", "backend", "ops", "threads",
            "workload");

    /** Values no key accepts: negative or huge sizes, wrong types, strings with a letter in them. */
    static Arbitrary<String> badScalars() {
        return Arbitraries.oneOf(
                Arbitraries.of("-4", "-1", "0x10", "1e9", "99999999999999999999999", "100000000", "\"\"", "'x'", "true", "-0.5",
                        "NaN", "~", "yes", "maybe"),
                Arbitraries.strings().withChars("abcxyz!$%^&()_+?;:,.").ofMinLength(1).ofMaxLength(20).map(s -> "x" + s)
                        .map(s -> s.replace(":", "").replace("#", "")));
    }

    static String deepBlock(int n) {
        StringBuilder b = new StringBuilder("workload: munmap-storm\n");
        for (int i = 0; i < n; i++) {
            b.append("  ".repeat(i)).append("k").append(i).append(":\n");
        }
        return b.toString();
    }

    /** "Billion laughs": each level refers to the previous one ten times. */
    static String laughs(int levels) {
        StringBuilder b = new StringBuilder("a0: &a0 [\"lol\"]\n");
        for (int i = 1; i <= levels; i++) {
            b.append("a").append(i).append(": &a").append(i).append(" [");
            for (int j = 0; j < 10; j++) {
                b.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
            }
            b.append("]\n");
        }
        return b.append("workload: munmap-storm\n").toString();
    }

    static byte[] utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Drops the rare generated file that is a valid scenario after all (e.g. "seed: true" cannot be; "reps: 1" could). */
    static boolean notAccidentallyValid(byte[] b) {
        String s = new String(b, java.nio.charset.StandardCharsets.UTF_8);
        return !s.equals(BASE);
    }

    // ---------------------------------------------------------------- argument lists

    @Property(tries = 1500)
    void hostileArgumentListsAreRejectedInOneLine(@ForAll("argLists") List<String> args) {
        assertRejected(String.join(" ", args), args.toArray(String[]::new));
    }

    static final List<String> NOISE = List.of("--set", "--vary", "--seed", "--reps", "--backend", "--json", "--csv", "--html",
            "--quiet", "threads=2", "ops=1", "vcpus=2", "x=y", "=", "==", "", " ", "-", "--", "-x", "--frob", "munmap-storm",
            "kernbench", "netperf-rr", "native", "kvm", "1", "-1", "0", "99999999999", "\u0000", "\uFFFF", "docs/none.yaml",
            "lazy=off", "backend=native,kvm", "threads=1,2");

    static final List<String> DEFECTS = List.of("--set vcpus=-4", "--set vcpus=100000000", "--set native.concurrentFlush=maybe",
            "--set memory=0", "--set memory=99999999", "--set nosuchknob=1", "--set threads", "--set topology=1x4", "--set topology=0x1x1",
            "--set smt.sharedTlb=yes", "--reps 0", "--reps 1001", "--seed notanumber", "--backend xen-pvv", "--set vms=0",
            "--set pcpus=-1", "--set profile=/nonexistent/p.yaml", "--set reps=-2",
            "--no-such-option", "--set quantum=-1", "--set seed=1.5", "--set vms=65", "--set others=maybe",
            "--set others=");

    @Provide
    Arbitrary<List<String>> argLists() {
        Arbitrary<String> command = Arbitraries.of("run", "compare");
        Arbitrary<String> scenario = Arbitraries.of("munmap-storm", "sysbench-mmap-rndwr", "netperf-rr", "kernbench", "mprotect-noise",
                "ebizzy", "tlb-flush2", "gup-fast-vs-free", "no-such-scenario", "docs/none.yaml", "../x.yml");
        Arbitrary<List<String>> noise = Arbitraries.of(NOISE).list().ofMaxSize(6);
        Arbitrary<String> defect = Arbitraries.of(DEFECTS);
        Arbitrary<String> randomToken = Arbitraries.strings().all().ofMinLength(1).ofMaxLength(30);
        return Combinators.combine(command, scenario, noise, defect, randomToken, Arbitraries.integers().between(0, 3))
                .as((c, s, n, d, rnd, where) -> {
                    List<String> a = new ArrayList<>();
                    a.add(c);
                    a.add(s);
                    if (c.equals("compare")) {
                        a.add("--vary");
                        a.add("lazy=off,skip"); // no defect names lazy, so the --vary cannot override one
                    }
                    // The defect goes first among the options, so nothing before it can start a run.
                    a.addAll(List.of(d.split(" ")));
                    if (where == 0) {
                        a.add(rnd);
                    }
                    a.addAll(n);
                    return a;
                });
    }
}
