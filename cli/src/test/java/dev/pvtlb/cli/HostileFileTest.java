package dev.pvtlb.cli;

import static dev.pvtlb.cli.HostileInputTest.assertRejected;
import static dev.pvtlb.cli.HostileInputTest.utf8;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Hostile files given to the commands that read files other than scenarios: study files
 * ({@code sweep}), profiles ({@code run --set profile=FILE}, {@code host compare --profile}) and
 * traces ({@code replay}). Each is read through the same bounded reader as a scenario file, so
 * each must end in exit 2 with one line on stderr, never a stack trace or a JVM error. Every
 * generated file carries a defect that is caught before a run starts.
 */
class HostileFileTest {
    private static Path dir;

    @BeforeContainer
    static void makeDir() throws IOException {
        dir = Files.createTempDirectory("pvtlb-hostile-files");
    }

    @AfterContainer
    static void removeDir() throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static Path write(String prefix, String suffix, byte[] content) throws IOException {
        Path f = Files.createTempFile(dir, prefix, suffix);
        Files.write(f, content);
        return f;
    }

    private static String shown(byte[] content) {
        String s = new String(content, StandardCharsets.ISO_8859_1);
        return s.length() > 300 ? s.substring(0, 300) + "... (" + s.length() + " bytes)" : s;
    }

    // ---------------------------------------------------------------- study files (sweep)

    @Property(tries = 600)
    void hostileStudyFilesAreRejectedInOneLine(@ForAll("studies") byte[] content) throws IOException {
        Path f = write("study", ".yaml", content);
        Path out = dir.resolve(f.getFileName() + "-out");
        try {
            assertRejected(shown(content), "sweep", f.toString(), "--out", out.toString(), "--parallel", "1");
            org.junit.jupiter.api.Assertions.assertFalse(Files.exists(out), "nothing written for " + shown(content));
        } finally {
            Files.deleteIfExists(f);
        }
    }

    /** A valid grid of one cheap run, to which each case adds one defect. */
    static final String STUDY = "scenario: munmap-storm\nset: {ops: 1, threads: 2, vcpus: 2}\n";

    static final List<String> STUDY_DEFECTS = List.of("seeds: []\n", "seeds: [1, 1]\n", "seeds: 7\n", "seeds: [x]\n",
            "seeds: [99999999999999999999999]\n", "reps: 0\n", "reps: -1\n", "reps: 1001\n", "reps: many\n", "maxRuns: 0\n",
            "vary: {threads: []}\n", "vary: {threads: 2}\n", "vary: {nosuch: [1, 2]}\n", "vary: {vcpus: [2, lots]}\n",
            "vary: [threads]\n", "vary: {threads: [2, 2]}\n", "vary: {backend: [native, vmware]}\n", "metrics: []\n",
            "metrics: {a: 1}\n", "backend: [native]\n", "backend: nosuch\n", "set: [1]\n", "set: {nosuch: 1}\n",
            "set: {profile: /nonexistent/p.yaml}\n", "set: {vcpus: {a: 1}}\n", "explore: {scenario: kvm-preempted-flush}\n",
            "unknown: 1\n", "scenario: kernbench\n", "maxRuns: 1\nvary: {threads: [2, 4]}\n",
            "vary: {threads: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], pages: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "
                    + "ops: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], vcpus: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "
                    + "accesses: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}\n",
            "scenario: !!binary AAAA\n", "set: !!set {a, b}\n", "? [a, b]\n: c\n", "&a x: *a\n");

    static final List<String> CAMPAIGN_DEFECTS = List.of("budget: 0", "budget: -5", "budget: x", "strategy: exhaustive",
            "strategy: nope", "depth: 0", "depth: 65", "tasks: 0", "wave: 100001", "variants: []", "variants: [{nosuch: 1}]",
            "variants: [[1]]", "seed: 1.5", "scenario: nosuch", "backend: vmware", "set: {vcpus: -1}", "frob: 1");

    @Provide
    Arbitrary<byte[]> studies() {
        Arbitrary<String> deep = Arbitraries.integers().between(17, 100_000).flatMap(n -> Arbitraries.of(
                "[".repeat(n), "{".repeat(n) + "}".repeat(n), STUDY + "vary: {threads: " + "[".repeat(n),
                HostileInputTest.deepBlock(Math.min(n, 2000)).replace("workload: munmap-storm", "scenario: munmap-storm"),
                "- ".repeat(n) + "x"));
        // A 'set:' or 'scenario:' defect replaces the base's line (a second one would be refused as a duplicate key).
        Arbitrary<String> defect = Arbitraries.of(STUDY_DEFECTS).map(d -> d.startsWith("set:")
                ? STUDY.replace("set: {ops: 1, threads: 2, vcpus: 2}\n", "") + d : STUDY + d);
        // Integers are valid seeds, and non-negative ones may be valid reps or maxRuns: only the rest are defects.
        Arbitrary<String> badValue = Combinators.combine(Arbitraries.of("reps", "maxRuns", "seeds"), HostileInputTest.badScalars())
                .filter((k, v) -> !v.matches("\\d+|0x[0-9a-fA-F]+|0o[0-7]+") && !(k.equals("seeds") && v.matches("-\\d+")))
                .as((k, v) -> STUDY + k + ": " + (k.equals("seeds") ? "[" + v + "]" : v) + "\n");
        Arbitrary<String> campaign = Arbitraries.of(CAMPAIGN_DEFECTS).map(d -> "explore:\n  scenario: kvm-preempted-flush\n"
                + "  backend: kvm\n  budget: 10\n  " + d + "\n");
        Arbitrary<String> garbage = Arbitraries.strings().all().ofMinLength(0).ofMaxLength(200)
                .filter(s -> !s.contains("scenario") && !s.contains("explore"));
        Arbitrary<String> laughs = Arbitraries.integers().between(1, 30)
                .map(n -> HostileInputTest.laughs(n).replace("workload: munmap-storm", "scenario: munmap-storm"));
        Arbitrary<String> huge = Arbitraries.integers().between(256 * 1024 + 1, 600_000).map(n -> STUDY + "#" + "x".repeat(n));
        Arbitrary<byte[]> binary = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(300)
                .map(b -> { b[0] = (byte) 0xff; return b; });
        return Arbitraries.oneOf(deep.map(HostileInputTest::utf8), defect.map(HostileInputTest::utf8),
                badValue.map(HostileInputTest::utf8), campaign.map(HostileInputTest::utf8), garbage.map(HostileInputTest::utf8),
                laughs.map(HostileInputTest::utf8), huge.map(HostileInputTest::utf8), binary);
    }

    @Example
    void aStudyOfAHundredThousandBracketsIsOneLine() throws IOException {
        Path f = write("deep", ".yaml", utf8("[".repeat(100_000) + "\n"));
        MainTest.Result r = MainTest.pvtlb("sweep", f.toString(), "--out", dir.resolve("deep-out").toString());
        org.junit.jupiter.api.Assertions.assertEquals(2, r.code());
        org.junit.jupiter.api.Assertions.assertEquals("pvtlb: " + f.getFileName() + ":1: nested more than 16 levels deep\n",
                r.err());
    }

    @Example
    void aStudyThatIsNotARegularFileIsOneLine() {
        assertRejected("a directory", "sweep", dir.toString(), "--out", dir.resolve("o").toString());
        assertRejected("a device", "sweep", "/dev/zero", "--out", dir.resolve("o").toString());
        assertRejected("missing", "sweep", dir.resolve("none.yaml").toString());
    }

    // ---------------------------------------------------------------- profiles

    /** A valid profile file but for one line. */
    static final List<String> PROFILE_DEFECTS = List.of("syscall.ns: -1", "syscall.ns: 1e13", "syscall.ns: NaN",
            "syscall.ns: lots", "syscall.ns", "nosuch.ns: 1", ": 1", "extends: nosuch-profile", "extends: /nonexistent/p.yaml",
            "extends: /dev", "extends: /dev/zero");

    @Property(tries = 300)
    void hostileProfilesAreRejectedInOneLine(@ForAll("profiles") String text, @ForAll boolean hostCompare) throws IOException {
        Path f = write("profile", ".yaml", utf8(""));
        // A profile that extends itself (or its own copy) must end, not recurse until the stack is gone.
        Files.write(f, utf8(text.replace("SELF", f.toString()))); // an unpaired surrogate becomes '?'
        try {
            if (hostCompare) {
                assertRejected(text, "host", "compare", "munmap-storm", "--threads", "1", "--iterations", "1",
                        "--profile", f.toString());
            } else {
                assertRejected(text, "run", "munmap-storm", "--set", "ops=1", "--set", "threads=2", "--quiet",
                        "--set", "profile=" + f);
            }
        } finally {
            Files.deleteIfExists(f);
        }
    }

    @Provide
    Arbitrary<String> profiles() {
        Arbitrary<String> defect = Arbitraries.of(PROFILE_DEFECTS).map(d -> "extends: x86-skylake\n" + d + "\n");
        Arbitrary<String> badNumber = HostileInputTest.badScalars().filter(v -> !isCost(v))
                .map(v -> "extends: x86-skylake\nfault.ns: " + v + "\n");
        Arbitrary<String> self = Arbitraries.of("extends: SELF\n", "# a loop\nextends: SELF\nsyscall.ns: 5\n",
                "name: loop\nextends: SELF\n");
        Arbitrary<String> garbage = Arbitraries.strings().all().ofMinLength(0).ofMaxLength(200);
        Arbitrary<String> missingKeys = Arbitraries.of("name: empty\n", "", "syscall.ns: 5\n", "arch: x86\nfault.ns: 1\n");
        return Arbitraries.oneOf(defect, badNumber, self, garbage, missingKeys);
    }

    /** Whether a profile would take {@code v} as a cost (a number from 0 to 1e12). */
    static boolean isCost(String v) {
        try {
            double d = Double.parseDouble(v);
            return d >= 0 && d <= 1e12;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    @Example
    void aProfileThatIsTooLargeOrNotTextIsOneLine() throws IOException {
        Path big = write("big", ".yaml", utf8("#" + "x".repeat((1 << 20) + 1) + "\n"));
        assertRejected("too large", "run", "munmap-storm", "--quiet", "--set", "profile=" + big);
        Path binary = write("bin", ".yaml", new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1});
        assertRejected("binary", "run", "munmap-storm", "--quiet", "--set", "profile=" + binary);
        assertRejected("a directory", "run", "munmap-storm", "--quiet", "--set", "profile=" + dir);
    }

    // ---------------------------------------------------------------- traces (replay)

    @Property(tries = 400)
    void hostileTracesAreRejectedInOneLine(@ForAll("traces") byte[] content) throws IOException {
        Path f = write("trace", ".txt", content);
        try {
            assertRejected(shown(content), "replay", f.toString());
        } finally {
            Files.deleteIfExists(f);
        }
    }

    static String sha256(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A trace whose checksum matches, so the defect is in what it says, not in its integrity. */
    static String signed(String body) {
        String b = "pvtlb-trace 1\n" + body;
        return b + "checksum " + sha256(b) + "\n";
    }

    static final String BODY = "scenario gup-fast-vs-free\nbackend native\nseed 1\nhazard WALK_AFTER_FREE cpu 1 time 5000\n";

    @Provide
    Arbitrary<byte[]> traces() {
        Arbitrary<String> bodyDefect = Arbitraries.of(
                BODY + "choices 2\nc ORDER 2 1\n",                    // fewer choices than announced
                BODY + "choices 1\nc ORDER 2 2\n",                    // answer out of range
                BODY + "choices 1\nc ORDER 1 0\n",                    // a choice of one option
                BODY + "choices 1\nc NO_SUCH_POINT 2 0\n",
                BODY + "choices 1\nc ORDER 99999999999 0\n",
                BODY + "choices x\n",
                BODY + "choices -1\n",
                BODY.replace("gup-fast-vs-free", "no-such-scenario") + "choices 0\n",
                BODY.replace("gup-fast-vs-free", "/etc/passwd") + "choices 0\n",
                BODY.replace("gup-fast-vs-free", "/dev/zero") + "choices 0\n",
                BODY.replace("native", "vmware") + "choices 0\n",
                BODY.replace("WALK_AFTER_FREE", "NOSUCH") + "choices 0\n",
                BODY.replace("seed 1", "seed one") + "choices 0\n",
                BODY + "set vcpus=-4\nchoices 0\n",
                BODY + "set nosuch=1\nchoices 0\n",
                BODY + "set threads\nchoices 0\n",
                BODY + "set profile=/nonexistent/p.yaml\nchoices 0\n",
                BODY + "frob\nchoices 0\n",
                "hazard\n", "", "scenario\n");
        Arbitrary<String> randomBody = Arbitraries.strings().withChars("abcsdeORDERchoices 0123456789\n-").ofMaxLength(120)
                .map(b -> b.endsWith("\n") || b.isEmpty() ? b : b + "\n");
        Arbitrary<String> unsigned = Arbitraries.oneOf(Arbitraries.of(BODY + "choices 0\nchecksum 00\n",
                "pvtlb-trace 1\n" + BODY, "pvtlb-trace 2\n" + BODY + "checksum 00\n", "checksum\n", "#only a comment\n"),
                Arbitraries.strings().all().ofMaxLength(200));
        Arbitrary<byte[]> binary = Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(300)
                .map(b -> { b[0] = (byte) 0xff; return b; });
        return Arbitraries.oneOf(Arbitraries.oneOf(bodyDefect, randomBody).map(HostileFileTest::signed).map(HostileInputTest::utf8),
                unsigned.map(HostileInputTest::utf8), binary);
    }

    @Example
    void aTraceThatIsNotARegularFileIsOneLine() {
        assertRejected("a directory", "replay", dir.toString());
        assertRejected("a device", "replay", "/dev/zero");
        assertRejected("missing", "replay", dir.resolve("none.txt").toString());
    }
}
