package dev.pvtlb.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.ScheduleRun;
import dev.pvtlb.explore.TraceFile;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.run.Scenario;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One study of 24 small runs, run locally, on Spark local[2] and on a standalone cluster of a
 * master and two workers on loopback: the three runs.csv (and runs.jsonl) are equal row for row.
 */
class SparkSweepTest {
    @TempDir
    static Path tmp;
    static Path study;
    static String localCsv;
    static String localJsonl;

    record Result(int rc, String out, String err) {}

    static Result pvtlb(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int rc = SparkMain.execute(args, new PrintWriter(o, true), new PrintWriter(e, true));
        return new Result(rc, o.toString(), e.toString());
    }

    @BeforeAll
    static void localSweep() throws IOException {
        study = tmp.resolve("small.yaml");
        Files.writeString(study, """
                scenario: munmap-storm
                set: {ops: 3, vcpus: 4, accesses: 200, memory: 16}
                vary:
                  threads: [2, 4]
                  native.smtSiblingDedup: [false, true]
                  pages: [8, 16]
                seeds: [1, 2, 3]
                metrics: [munmap_ns]
                """);
        Result r = pvtlb("sweep", study.toString(), "--out", tmp.resolve("local").toString(), "--parallel", "2");
        assertEquals(0, r.rc(), r.err());
        localCsv = Files.readString(tmp.resolve("local/runs.csv"));
        localJsonl = Files.readString(tmp.resolve("local/runs.jsonl"));
        List<String> lines = localCsv.lines().toList();
        assertEquals(25, lines.size());
        assertTrue(lines.get(0).startsWith("run,scenario,backend,threads,native.smtSiblingDedup,pages,seed,reps,fidelity,"
                + "metric.munmap_ns,"), lines.get(0));
        assertTrue(lines.get(1).startsWith("0,munmap-storm,native,2,false,8,1,1,fast,"), lines.get(1));
        assertTrue(lines.get(24).startsWith("23,munmap-storm,native,4,true,16,3,1,"), lines.get(24));
    }

    @Test
    void sparkLocalGivesTheSameRowsAndWritesCsvAndParquet() throws IOException {
        Path out = tmp.resolve("local2");
        Result r = pvtlb("sweep", study.toString(), "--out", out.toString(), "--master", "local[2]");
        assertEquals(0, r.rc(), r.err());
        assertEquals(localCsv, Files.readString(out.resolve("runs.csv")));
        assertEquals(localJsonl, Files.readString(out.resolve("runs.jsonl")));
        assertEquals(r.out().lines().filter(l -> l.startsWith("2 ") || l.startsWith("4 ")).count(), 8, r.out());
        List<String> sparkCsv = partLines(out.resolve("spark/csv"), ".csv");
        assertEquals(25, sparkCsv.size());
        assertTrue(sparkCsv.get(0).startsWith("run,scenario,backend,threads,native.smtSiblingDedup,pages,seed,"),
                sparkCsv.get(0));
        assertTrue(sparkCsv.get(1).startsWith("0,munmap-storm,native,2,false,8,1,1,"), sparkCsv.get(1));
        try (Stream<Path> s = Files.list(out.resolve("spark/parquet"))) {
            assertEquals(1, s.filter(p -> p.getFileName().toString().endsWith(".parquet")).count());
        }
    }

    @Test
    void standaloneClusterOfTwoWorkersGivesTheSameRows() throws Exception {
        Path dir = tmp.resolve("cluster");
        Files.createDirectories(dir);
        try (StandaloneCluster c = new StandaloneCluster(dir, 2)) {
            List<String> args = new ArrayList<>(List.of("sweep", study.toString(), "--out", dir.resolve("out").toString(),
                    "--master", c.url));
            c.executorConf().forEach(kv -> args.addAll(List.of("--spark-conf", kv)));
            Result r = pvtlb(args.toArray(String[]::new));
            assertEquals(0, r.rc(), r.err() + "\nmaster log:\n" + Files.readString(c.masterLog));
        }
        assertEquals(localCsv, Files.readString(dir.resolve("out/runs.csv")));
        assertEquals(localJsonl, Files.readString(dir.resolve("out/runs.jsonl")));
        assertEquals(25, partLines(dir.resolve("out/spark/csv"), ".csv").size());
    }

    @Test
    void campaignOnSparkFindsThePreemptedFlushRaceAndItsTraceReplays() throws IOException {
        Path f = tmp.resolve("campaign.yaml");
        Files.writeString(f, """
                explore:
                  scenario: kvm-preempted-flush
                  backend: kvm
                  variants:
                    - {kvm.hostClearPreempted: plain-write}
                  strategy: random
                  budget: 4000
                  tasks: 8
                  wave: 2
                """);
        Path out = tmp.resolve("campaign");
        Result r = pvtlb("sweep", f.toString(), "--out", out.toString(), "--master", "local[2]");
        assertEquals(1, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("variant 0 [kvm.hostClearPreempted=plain-write]: HAZARD in schedule "), r.out());
        List<String> csv = Files.readAllLines(out.resolve("campaign.csv"));
        assertEquals(2, csv.size());
        assertTrue(csv.get(1).startsWith("0,kvm.hostClearPreempted=plain-write,"), csv.get(1));
        assertTrue(csv.get(1).contains(",STALE_TRANSLATION,"), csv.get(1));
        // The campaign's outcome depends on the file only: the same slices found the same schedule locally.
        Path local = tmp.resolve("campaign-local");
        Result l = pvtlb("sweep", f.toString(), "--out", local.toString(), "--parallel", "2");
        assertEquals(1, l.rc(), l.out() + l.err());
        assertEquals(Files.readString(local.resolve("campaign.csv")), Files.readString(out.resolve("campaign.csv")));
        assertEquals(Files.readString(local.resolve("trace-0.txt")), Files.readString(out.resolve("trace-0.txt")));
        // Replayed as 'pvtlb replay' does (the cli module is not a dependency of this one).
        TraceFile t = TraceFile.parse(Files.readString(out.resolve("trace-0.txt")));
        Scenario s = Scenario.of(t.scenario()).backend(t.backend()).seed(t.seed());
        t.settings().forEach(kv -> s.set(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1)));
        ScheduleRun replay = new Explorer(s).replay(t.choices());
        assertTrue(replay.found(), "the trace reproduces a hazard");
        assertEquals(HazardKind.STALE_TRANSLATION, replay.hazard().kind());
        assertEquals(t.timeNs(), replay.hazard().timeNs());
    }

    private static List<String> partLines(Path dir, String ext) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(x -> x.getFileName().toString().startsWith("part-")
                    && x.getFileName().toString().endsWith(ext)).sorted().toList()) {
                lines.addAll(Files.readAllLines(p));
            }
        }
        return lines;
    }
}
