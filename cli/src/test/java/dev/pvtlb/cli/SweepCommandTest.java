package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SweepCommandTest {
    static final String SMALL = """
            scenario: munmap-storm
            set: {ops: 3, vcpus: 4, accesses: 200, memory: 16}
            vary:
              threads: [2, 4]
            seeds: [1, 2]
            metrics: [munmap_ns]
            """;

    @Test
    void aGridWritesOneRowPerRunInGridOrderWhateverTheParallelism(@TempDir Path dir) throws Exception {
        Path study = dir.resolve("small.yaml");
        Files.writeString(study, SMALL);
        MainTest.Result one = pvtlb("sweep", study.toString(), "--out", dir.resolve("one").toString(), "--parallel", "1");
        assertEquals(0, one.code(), one.err());
        MainTest.Result two = pvtlb("sweep", study.toString(), "--out", dir.resolve("two").toString(), "--parallel", "2");
        assertEquals(0, two.code(), two.err());
        List<String> csv = Files.readAllLines(dir.resolve("one/runs.csv"));
        assertEquals(5, csv.size());
        assertTrue(csv.get(0).startsWith("run,scenario,backend,threads,seed,reps,fidelity,metric.munmap_ns,metric.access_ns,"
                + "counter.nr_tlb_remote_flush,counter.nr_tlb_remote_flush_received,"), csv.get(0));
        assertTrue(csv.get(0).endsWith(",sim.steps,sim.simulated_s,hazards,verdict"), csv.get(0));
        assertTrue(csv.get(1).startsWith("0,munmap-storm,native,2,1,1,fast,3587,2.593083,6,3,"), csv.get(1));
        assertTrue(csv.get(3).startsWith("2,munmap-storm,native,4,1,1,fast,6232.166667,2.59025,12,22,"), csv.get(3));
        assertTrue(csv.get(4).startsWith("3,munmap-storm,native,4,2,1,fast,5931,2.612667,12,22,"), csv.get(4));
        assertTrue(csv.get(4).endsWith(",0,SAFE"), csv.get(4));
        for (String f : new String[] {"runs.csv", "runs.jsonl", "summary.html"}) {
            assertEquals(Files.readString(dir.resolve("one").resolve(f)), Files.readString(dir.resolve("two").resolve(f)), f);
        }
        String page = Files.readString(dir.resolve("one/summary.html"));
        assertTrue(page.contains("<table class='numbers'>\n<tr><th>threads</th><th>runs</th><th>munmap_ns</th><th>hazards</th></tr>\n"), page);
        assertTrue(!page.contains("<pre"), "the summary is a table, not preformatted text");
        assertEquals(one.out(), two.out().replace(dir.resolve("two").toString(), dir.resolve("one").toString()));
        assertEquals("""
                threads  runs    munmap_ns  hazards
                2           2  3392.166667        0
                4           2  6081.583333        0
                4 runs:\s""", one.out().substring(0, one.out().indexOf("4 runs: ") + 8));
        List<String> jsonl = Files.readAllLines(dir.resolve("one/runs.jsonl"));
        assertEquals(4, jsonl.size());
        assertTrue(jsonl.get(0).startsWith("{\"run\":0,\"scenario\":\"munmap-storm\",\"backend\":\"native\",\"threads\":\"2\","
                + "\"seed\":1,\"reps\":1,\"fidelity\":\"fast\",\"metric.munmap_ns\":3587,"), jsonl.get(0));
        String html = Files.readString(dir.resolve("one/summary.html"));
        assertEquals(1, html.split("<svg", -1).length - 1, "one chart: munmap_ns against threads");
        assertTrue(html.contains(">munmap_ns vs threads</text>"), html);
        assertFalse(html.contains("<script"), html);
    }

    @Test
    void aCampaignFindsThePreemptedFlushRaceAndItsTraceReplays(@TempDir Path dir) throws Exception {
        Path study = dir.resolve("campaign.yaml");
        Files.writeString(study, """
                explore:
                  scenario: kvm-preempted-flush
                  backend: kvm
                  variants:
                    - {kvm.hostClearPreempted: plain-write}
                  budget: 4000
                  tasks: 8
                  wave: 2
                """);
        MainTest.Result r = pvtlb("sweep", study.toString(), "--out", dir.resolve("out").toString(), "--parallel", "2");
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("variant 0 [kvm.hostClearPreempted=plain-write]: HAZARD in schedule "), r.out());
        MainTest.Result replay = pvtlb("replay", dir.resolve("out/trace-0.txt").toString());
        assertEquals(1, replay.code(), replay.out() + replay.err());
        assertTrue(replay.out().startsWith("reproduced: STALE_TRANSLATION"), replay.out());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "unknown axis|scenario: munmap-storm\\nvary:\\n  nosuch: [1, 2]|bad.yaml: vary.nosuch: unknown setting 'nosuch'",
        "empty axis|scenario: munmap-storm\\nvary:\\n  threads: []|bad.yaml: vary.threads is empty: the grid has no runs",
        "empty seeds|scenario: munmap-storm\\nseeds: []|bad.yaml: seeds is empty: the grid has no runs",
        "too many runs|scenario: munmap-storm\\nmaxRuns: 3\\nvary:\\n  threads: [2, 4]\\nseeds: [1, 2]|bad.yaml: the grid has 4 runs, more than maxRuns 3",
        "bad axis value|scenario: munmap-storm\\nvary:\\n  vcpus: [4, lots]|bad.yaml: vary.vcpus: vcpus must be an integer, got 'lots'",
        "unknown backend axis|scenario: munmap-storm\\nvary:\\n  backend: [native, vmware]|bad.yaml: vary.backend: ",
        "unknown scenario|scenario: nosuch\\nseeds: [1]|bad.yaml: scenario: ",
        "unknown top key|scenario: munmap-storm\\nvaryy: {threads: [1]}|bad.yaml: unknown key 'varyy'",
        "not a mapping|- just\\n- a list|bad.yaml: a study file is a YAML mapping",
        "not YAML|scenario: [unclosed|bad.yaml:1: not valid YAML: ",
        "exhaustive campaign|explore: {scenario: kvm-preempted-flush, backend: kvm, strategy: exhaustive, budget: 10}|bad.yaml: explore.strategy must be random or pct",
        "campaign without budget|explore: {scenario: kvm-preempted-flush, backend: kvm}|bad.yaml: explore.budget (total schedules) is missing",
        "bad variant|explore: {scenario: kvm-preempted-flush, backend: kvm, budget: 10, variants: [{nosuch: 1}]}|bad.yaml: explore.variants[0]: unknown setting 'nosuch'",
    })
    void aMalformedStudyIsRefusedBeforeAnythingRuns(String what, String text, String reason, @TempDir Path dir)
            throws Exception {
        Path study = dir.resolve("bad.yaml");
        Files.writeString(study, text.replace("\\n", "\n"));
        Path out = dir.resolve("out");
        MainTest.Result r = pvtlb("sweep", study.toString(), "--out", out.toString());
        assertEquals(2, r.code(), what + ": " + r.out() + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("pvtlb: " + reason), what + ": " + r.err());
        assertFalse(Files.exists(out), "nothing was written");
    }

    @Test
    void maxRunsOnTheCommandLineOverridesTheFile(@TempDir Path dir) throws Exception {
        Path study = dir.resolve("small.yaml");
        Files.writeString(study, SMALL);
        MainTest.Result r = pvtlb("sweep", study.toString(), "--out", dir.resolve("out").toString(), "--max-runs", "2");
        assertEquals(2, r.code());
        assertEquals("pvtlb: small.yaml: the grid has 4 runs, more than maxRuns 2 (raise maxRuns in the file or --max-runs "
                + "if you mean it)\n", r.err());
    }

    @Test
    void anOutThatIsAFileIsRefused(@TempDir Path dir) throws Exception {
        Path study = dir.resolve("small.yaml");
        Files.writeString(study, SMALL);
        Path file = Files.writeString(dir.resolve("taken"), "x");
        MainTest.Result r = pvtlb("sweep", study.toString(), "--out", file.toString());
        assertEquals(2, r.code());
        assertEquals("pvtlb: --out " + file + " is a file, not a directory\n", r.err());
        assertEquals("x", Files.readString(file), "a file with content is left alone");
    }

    @Test
    void anEmptyFileInTheWayBecomesTheOutputDirectory(@TempDir Path dir) throws Exception {
        Path study = dir.resolve("small.yaml");
        Files.writeString(study, SMALL);
        Path empty = Files.createFile(dir.resolve("out"));
        MainTest.Result r = pvtlb("sweep", study.toString(), "--out", empty.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(Files.isDirectory(empty));
        assertTrue(Files.exists(empty.resolve("runs.csv")));
    }
}
