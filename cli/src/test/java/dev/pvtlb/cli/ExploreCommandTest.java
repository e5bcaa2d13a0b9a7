package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExploreCommandTest {
    @Test
    void aSafeVariantExitsZeroWithTheScheduleCount() {
        MainTest.Result r = pvtlb("explore", "lazy-speculative-walk", "--set", "lazy=skip", "--budget", "200", "--seed", "4");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("schedules: 200 in "), r.out());
        assertTrue(r.out().contains("verdict: SAFE (no hazard in 200 schedules)"), r.out());
    }

    /** --parallel: the same verdict, schedule and trace as one at a time; 0 is refused in one line. */
    @Test
    void parallelWorkersReportWhatOneAtATimeFinds() {
        String[] args = {"explore", "lazy-speculative-walk", "--set", "lazy=skip-nofree", "--budget", "200", "--seed", "4"};
        MainTest.Result one = pvtlb(concat(args, "--parallel", "1"));
        MainTest.Result three = pvtlb(concat(args, "--parallel", "3"));
        assertEquals(1, one.code(), one.out() + one.err());
        assertEquals(1, three.code(), three.out() + three.err());
        // Everything but the line of wall time.
        assertEquals(one.out().lines().filter(l -> !l.startsWith("schedules: ")).toList(),
                three.out().lines().filter(l -> !l.startsWith("schedules: ")).toList());
        assertTrue(three.out().contains("verdict: HAZARD WALK_AFTER_FREE found in schedule "), three.out());
        MainTest.Result zero = pvtlb(concat(args, "--parallel", "0"));
        assertEquals(2, zero.code());
        assertEquals("pvtlb: --parallel must be between 1 and 1024, got 0", zero.err().strip());
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    /**
     * --sizes: one line per size, a size below the entry's roles listed as not run, the first
     * hazard in full with its trace, which replays at its own size.
     */
    @Test
    void sizesHuntEachSizeAndTheFirstHazardReplays(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.trace");
        MainTest.Result r = pvtlb("explore", "gup-fast-vs-free", "--backend", "invlpgb", "--set", "tableFree=immediate",
                "--sizes", "1,2,4,8", "--budget", "300", "--seed", "3", "--trace", trace.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        java.util.List<String> lines = r.out().lines().toList();
        assertEquals("scenario gup-fast-vs-free  backend invlpgb  knobs tableFree=immediate  strategy random  seed 3  sizes cpus=1,2,4,8",
                lines.get(0));
        assertEquals("cpus=1    not run: gup-fast-vs-free: parameter cpus must be between 2 and 64, got 1", lines.get(1));
        assertTrue(lines.get(2).startsWith("cpus=2    SAFE    300 schedules in "), lines.get(2));
        assertTrue(lines.get(3).startsWith("cpus=4    HAZARD  WALK_AFTER_FREE in schedule 4 ("), lines.get(3));
        assertTrue(lines.get(4).startsWith("cpus=8    HAZARD  WALK_AFTER_FREE in schedule 40 ("), lines.get(4));
        assertEquals("first hazard, at cpus=4", lines.get(6));
        MainTest.Result again = pvtlb("replay", trace.toString());
        assertEquals(1, again.code(), again.out() + again.err());
        assertTrue(again.out().startsWith("reproduced: WALK_AFTER_FREE at "), again.out());

        MainTest.Result both = pvtlb("explore", "gup-fast-vs-free", "--sizes", "4", "--set", "cpus=2");
        assertEquals(2, both.code());
        assertEquals("pvtlb: --sizes sets the machine size itself: drop --set cpus=2", both.err().strip());
        MainTest.Result none = pvtlb("explore", "madvise-nested-flush", "--sizes", "2");
        assertEquals(2, none.code());
        assertEquals("pvtlb: --sizes: no size could run: madvise-nested-flush: parameter cpus must be between 3 and 64, got 2",
                none.err().strip());
        MainTest.Result bad = pvtlb("explore", "gup-fast-vs-free", "--sizes", "4,x");
        assertEquals(2, bad.code());
    }

    @Test
    void aHazardExitsOneWritesATraceAndReplayReproducesIt(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.trace");
        MainTest.Result r = pvtlb("explore", "lazy-speculative-walk", "--set", "lazy=skip-nofree", "--budget", "200",
                "--seed", "4", "--trace", trace.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("verdict: HAZARD WALK_AFTER_FREE found in schedule "), r.out());
        assertTrue(r.out().contains("speculative page walk read pte table frame"), r.out());
        String text = Files.readString(trace);
        assertTrue(text.startsWith("# pvtlb hazard trace"), text);
        MainTest.Result again = pvtlb("replay", trace.toString());
        assertEquals(1, again.code(), again.out() + again.err());
        assertTrue(again.out().startsWith("reproduced: WALK_AFTER_FREE at "), again.out());

        // An edited answer is refused, as is a cut file.
        Files.writeString(trace, text.replaceFirst("\nc (\\w+) (\\d+) 0\n", "\nc $1 $2 1\n"));
        MainTest.Result edited = pvtlb("replay", trace.toString());
        assertEquals(2, edited.code(), edited.out() + edited.err());
        assertEquals("pvtlb: trace file was changed or damaged: its checksum does not match its contents", edited.err().strip());
        Files.writeString(trace, text.substring(0, text.indexOf("\nchecksum ")));
        MainTest.Result cut = pvtlb("replay", trace.toString());
        assertEquals(2, cut.code());
        assertEquals("pvtlb: trace file is truncated: its last line is not the checksum", cut.err().strip());
    }

    /**
     * A benchmark workload is explored in windows branched at its flushes; the window's hazard is
     * traced with the base run's choices before its own, so replay from boot reproduces it.
     * --mode runs explores whole runs; a bad --mode is one line and exit 2.
     */
    @Test
    void aWorkloadIsExploredInWindowsWhoseHazardReplaysFromBoot(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("w.trace");
        String[] small = {"explore", "munmap-storm", "--set", "vcpus=4", "--set", "threads=4", "--set", "ops=20", "--seed", "2"};
        MainTest.Result r = pvtlb(concat(small, "--set", "inject=tlb-gen-not-bumped", "--budget", "400", "--parallel", "1",
                "--trace", trace.toString()));
        assertEquals(1, r.code(), r.out() + r.err());
        java.util.List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(1).startsWith("windows: 1 in "), lines.get(1));
        assertTrue(lines.get(1).endsWith("branched at the flushes of 1 run(s) from boot, 20000 ns each"), lines.get(1));
        assertTrue(lines.get(2).startsWith("verdict: HAZARD STALE_TRANSLATION found in window 1; "), lines.get(2));
        MainTest.Result again = pvtlb("replay", trace.toString());
        assertEquals(1, again.code(), again.out() + again.err());
        assertTrue(again.out().startsWith("reproduced: STALE_TRANSLATION at 181955 ns on cpu0"), again.out());

        // Two workers report the same window and trace (only the count of windows run and the time differ).
        MainTest.Result two = pvtlb(concat(small, "--set", "inject=tlb-gen-not-bumped", "--budget", "400", "--parallel", "2"));
        assertEquals(1, two.code(), two.out() + two.err());
        java.util.List<String> twoLines = two.out().lines().toList();
        assertEquals(lines.subList(2, twoLines.size()), twoLines.subList(2, twoLines.size()), "the first run also names its trace file");

        // A hazard the run from boot meets before its first flush is that run's, not a window's.
        MainTest.Result byRun = pvtlb("explore", "madvise-touch", "--set", "inject=switch-mm-no-cpumask", "--seed", "1",
                "--budget", "100", "--parallel", "1");
        assertEquals(1, byRun.code(), byRun.out() + byRun.err());
        assertTrue(byRun.out().contains("verdict: HAZARD STALE_TRANSLATION found in a run from boot itself, after 0 window(s);"),
                byRun.out());

        // The budget counts windows and runs from boot: one run, 299 windows branched from it.
        MainTest.Result safe = pvtlb(concat(small, "--budget", "300", "--parallel", "1"));
        assertEquals(0, safe.code(), safe.out() + safe.err());
        assertTrue(safe.out().contains("verdict: SAFE (no hazard in 299 windows and 1 run(s) from boot)"), safe.out());
        // A workload that starts no flush to branch at is explored in runs from boot, within the budget.
        MainTest.Result noFlush = pvtlb("explore", "kernbench", "--set", "ops=4", "--budget", "20", "--seed", "1", "--parallel", "2");
        assertEquals(0, noFlush.code(), noFlush.out() + noFlush.err());
        assertTrue(noFlush.out().contains("verdict: SAFE (no hazard in 0 windows and 20 run(s) from boot)"), noFlush.out());
        MainTest.Result runs = pvtlb(concat(small, "--budget", "20", "--mode", "runs"));
        assertEquals(0, runs.code(), runs.out() + runs.err());
        assertTrue(runs.out().contains("verdict: SAFE (no hazard in 20 schedules)"), runs.out());
        MainTest.Result bad = pvtlb(concat(small, "--mode", "bogus"));
        assertEquals(2, bad.code());
        assertEquals("pvtlb: --mode must be windows or runs, got 'bogus'", bad.err().strip());
        MainTest.Result exhaustive = pvtlb(concat(small, "--mode", "windows", "--strategy", "exhaustive"));
        assertEquals(2, exhaustive.code());
        assertEquals("pvtlb: --mode windows takes --strategy random or pct: an exhaustive search plans whole runs",
                exhaustive.err().strip());
    }

    @Test
    void aTraceOfAnUnknownScenarioIsRefused(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.trace");
        pvtlb("explore", "lazy-speculative-walk", "--set", "lazy=skip-nofree", "--budget", "200", "--trace", trace.toString());
        String text = Files.readString(trace);
        // Re-sign a trace naming another scenario: replay must refuse it by name, not run something else.
        String body = text.lines().filter(l -> !l.startsWith("#") && !l.startsWith("checksum "))
                .map(l -> l.startsWith("scenario ") ? "scenario no-such-scenario" : l).reduce("", (a, b) -> a + b + "\n");
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
        String sum = java.util.HexFormat.of().formatHex(md.digest(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        Files.writeString(trace, body + "checksum " + sum + "\n");
        MainTest.Result r = pvtlb("replay", trace.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().startsWith("pvtlb: unknown scenario 'no-such-scenario'"), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "explore lazy-speculative-walk --strategy bogus",
        "explore lazy-speculative-walk --budget 0",
        "explore lazy-speculative-walk --strategy pct --depth 0",
        "explore lazy-speculative-walk --strategy exhaustive --bound -1",
        "explore lazy-speculative-walk --set lazy=sometimes",
        "explore no-such-scenario",
        "replay /nonexistent/trace"
    })
    void badInputGetsExitTwoAndOneLine(String line) {
        MainTest.Result r = pvtlb(line.split(" "));
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("pvtlb: "), r.err());
    }
}
