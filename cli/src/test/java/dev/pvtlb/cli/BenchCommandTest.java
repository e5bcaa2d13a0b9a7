package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.study.ScenarioArgs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code pvtlb bench}: an entry runs exactly the scenario it names, and reports its memory; with
 * {@code --baseline}, its speed relative to an earlier run's.
 */
class BenchCommandTest {
    /** A baseline of two entries as bench --json writes them, trimmed to the figures compared. */
    static final String TINY = """
            {
              "entries": [
                {
                  "name": "munmap-storm",
                  "steps_per_s": 1000000,
                  "rtf": 0.02,
                  "schedules_per_s": 0
                },
                {
                  "name": "gup-fast-vs-free",
                  "steps_per_s": 0,
                  "rtf": 0,
                  "schedules_per_s": 25000
                }
              ]
            }
            """;

    @Test
    void scaleEntryRunsTheFlushStormItNamesAndReportsHeapAndGuestMemory(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("b.json");
        MainTest.Result r = MainTest.pvtlb("bench", "--only", "scale-16", "--repeat", "2", "--fidelity", "exact", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        String j = Files.readString(json);
        RunReport same = Runner.run(ScenarioArgs.build("munmap-storm", "native", List.of("vcpus=16", "threads=16",
                "processes=1", "ops=1024", "workset=16", "accesses=200", "pages=16", "memory=2048"), 1L, null));
        assertEquals(same.steps(), number(j, "steps"), j);
        assertEquals(2048, number(j, "guest_memory_mb"), j);
        assertEquals(2, number(j, "repeats"), j);
        assertTrue(number(j, "heap_mb") > 0, j);
        assertEquals(1, j.split("\"name\"").length - 1, "only the one entry ran: " + j);
        assertTrue(r.out().startsWith("entry "), r.out());
    }

    @Test
    void bothLevelsRunEachEntryAtExactThenFastAndTheFastRowGivesTheirRatio(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("b.json");
        MainTest.Result r = MainTest.pvtlb("bench", "--only", "scale-16", "--repeat", "1", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        String j = Files.readString(json);
        List<String> sets = List.of("vcpus=16", "threads=16", "processes=1", "ops=1024", "workset=16", "accesses=200", "pages=16", "memory=2048");
        RunReport exact = Runner.run(ScenarioArgs.build("munmap-storm", "native", sets, 1L, null));
        List<String> fastSets = new java.util.ArrayList<>(sets);
        fastSets.add("fidelity=fast");
        RunReport fast = Runner.run(ScenarioArgs.build("munmap-storm", "native", fastSets, 1L, null));
        assertTrue(fast.steps() <= exact.steps(), fast.steps() + " fast steps against " + exact.steps());
        Matcher steps = Pattern.compile("\"steps\": (\\d+)").matcher(j);
        assertTrue(steps.find(), j);
        assertEquals(exact.steps(), Long.parseLong(steps.group(1)), j);
        assertTrue(steps.find(), j);
        assertEquals(fast.steps(), Long.parseLong(steps.group(1)), j);
        assertTrue(j.contains("\"fidelity\": \"exact\"") && j.contains("\"fidelity\": \"fast\""), j);
        double ratio = decimal(j, "fast_vs_exact");
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        assertTrue(lines.get(1).startsWith("scale-16               exact ") && lines.get(1).endsWith(" -"), lines.get(1));
        assertTrue(lines.get(2).startsWith("scale-16               fast ")
                && lines.get(2).endsWith(String.format(java.util.Locale.ROOT, "%.2fx", ratio)), lines.get(2) + " vs " + ratio);
        // A bench --json with both levels is a baseline: each level against its own row.
        BenchBaseline b = BenchBaseline.parse("b.json", j);
        assertEquals(2, b.entries().size());
        assertEquals(1.0, b.ratio("scale-16", true, false, decimal(j.substring(j.indexOf("\"fidelity\": \"fast\"")), "rtf")), 1e-12);
    }

    @Test
    void anOnlyThatMatchesNoEntryIsBadInput() {
        MainTest.Result r = MainTest.pvtlb("bench", "--only", "no-such-entry");
        assertEquals(2, r.code());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("pvtlb: no bench entry matches 'no-such-entry' (entries: munmap-storm, "), r.err());
    }

    @Test
    void theRatioIsTheCurrentRealTimeFactorOrSchedulesPerSecondOverTheBaselines() {
        BenchBaseline b = BenchBaseline.parse("tiny.json", TINY);
        assertEquals(1.5, b.ratio("munmap-storm", false, 0.03), 1e-12);
        assertEquals(0.5, b.ratio("munmap-storm", false, 0.01), 1e-12);
        assertEquals(1.2, b.ratio("gup-fast-vs-free", true, 30_000), 1e-12);
        assertNull(b.ratio("scale-16", false, 0.07), "not in the baseline: no ratio");
        assertNull(b.ratio("gup-fast-vs-free", false, 0.01), "a baseline figure of 0: no ratio");
        // The built-in baseline: commit a44539b's results on the development machine.
        BenchBaseline a44 = BenchBaseline.load("a44539b");
        assertEquals(9, a44.entries().size());
        assertEquals(2.0, a44.ratio("munmap-storm", false, 0.062336), 1e-12);
        assertEquals(1.0, a44.ratio("flush-storm-1024", false, 0.000322), 1e-12);
        assertEquals(0.5, a44.ratio("kvm-preempted-flush", true, 3122.9660635), 1e-12);
    }

    @Test
    void aBaselineAddsTheRatioBesideTheFiguresAndToTheJson(@TempDir Path dir) throws Exception {
        Path base = Files.writeString(dir.resolve("tiny.json"), TINY);
        Path json = dir.resolve("b.json");
        MainTest.Result r = MainTest.pvtlb("bench", "--only", "munmap-storm", "--repeat", "1", "--fidelity", "exact",
                "--baseline", base.toString(), "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        String j = Files.readString(json);
        double rtf = decimal(j, "rtf");
        double vs = decimal(j, "vs_baseline");
        assertEquals(rtf / 0.02, vs, 1e-4 * vs, j);
        assertTrue(j.startsWith("{\n  \"baseline\": \"" + base + "\",\n  \"entries\": ["), j);
        List<String> lines = r.out().lines().toList();
        assertEquals(3, lines.size(), r.out());
        assertTrue(lines.get(0).startsWith("entry ") && lines.get(0).endsWith(" heap MB fast/exact vs baseline"), lines.get(0));
        assertTrue(lines.get(1).startsWith("munmap-storm           exact ") && lines.get(1).endsWith(String.format("%11.3fx", vs)),
                lines.get(1) + " vs " + vs);
        assertEquals("vs baseline: current rtf (run entries) or schedules/s (explorer entries) over " + base
                + "'s; above 1 is faster, '-' where the baseline has no such entry", lines.get(2));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "missing file|-|: no such bench results file (pvtlb bench --json)",
        "bench's text output|entry  steps/s\\nmunmap-storm 1391406|: not JSON (a pvtlb bench --json file is a JSON object)",
        "empty|\\n|: not JSON (a pvtlb bench --json file is a JSON object)",
        "cut short|{\"entries\": [{\"name\": \"x\"|:1: not valid JSON: ",
        "no entries|{\"runs\": []}|: not a pvtlb bench --json file: no list 'entries'",
        "entry not an object|{\"entries\": [1]}|: not a pvtlb bench --json file: entries[0] is not an object",
        "no name|{\"entries\": [{\"rtf\": 1, \"schedules_per_s\": 0}]}|: not a pvtlb bench --json file: entries[0] has no string 'name'",
        "rtf a string|{\"entries\": [{\"name\": \"x\", \"rtf\": \"fast\", \"schedules_per_s\": 0}]}|: not a pvtlb bench --json file: entries[0] has no number 'rtf' (zero or more)",
        "no schedules|{\"entries\": [{\"name\": \"x\", \"rtf\": 1}]}|: not a pvtlb bench --json file: entries[0] has no number 'schedules_per_s' (zero or more)",
        "negative rtf|{\"entries\": [{\"name\": \"x\", \"rtf\": -1, \"schedules_per_s\": 0}]}|: not a pvtlb bench --json file: entries[0] has no number 'rtf' (zero or more)",
        "two of one name|{\"entries\": [{\"name\": \"x\", \"rtf\": 1, \"schedules_per_s\": 0}, {\"name\": \"x\", \"rtf\": 1, \"schedules_per_s\": 0}]}|: not a pvtlb bench --json file: entries[1]: a second entry named 'x'",
    })
    void aBadBaselineIsRefusedInOneLineBeforeAnythingRuns(String what, String text, String reason, @TempDir Path dir)
            throws Exception {
        Path f = dir.resolve("base.json");
        if (!text.equals("-")) {
            Files.writeString(f, text.replace("\\n", "\n"));
        }
        MainTest.Result r = MainTest.pvtlb("bench", "--only", "munmap-storm", "--baseline", f.toString());
        assertEquals(2, r.code(), what + ": " + r.out() + r.err());
        assertEquals("", r.out(), what + ": nothing ran");
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("pvtlb: --baseline " + f + reason), what + ": " + r.err());
    }

    private static double decimal(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": ([0-9.]+)").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        return Double.parseDouble(m.group(1));
    }

    private static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": ([0-9]+)").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        return Long.parseLong(m.group(1));
    }
}
