package dev.pvtlb.study;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.ModelException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StudyTest {
    static final String GRID = """
            scenario: munmap-storm
            set: {ops: 1, vcpus: 2}
            vary:
              threads: [2, 4]
              lazy: [off, skip]
            seeds: [1, 2]
            """;

    private static String error(String text) {
        return assertThrows(ModelException.class, () -> Study.parse("s.yaml", text, null)).getMessage();
    }

    @Test
    void runsGoInGridOrderTheFirstAxisSlowestAndSeedsFastest() {
        Study s = Study.parse("s.yaml", GRID, null);
        assertEquals(8, s.runCount());
        List<StudyRun> runs = s.runs();
        assertEquals(new StudyRun(0, Map.of("threads", "2", "lazy", "off"), 1), runs.get(0));
        assertEquals(new StudyRun(1, Map.of("threads", "2", "lazy", "off"), 2), runs.get(1));
        assertEquals(new StudyRun(2, Map.of("threads", "2", "lazy", "skip"), 1), runs.get(2));
        assertEquals(new StudyRun(7, Map.of("threads", "4", "lazy", "skip"), 2), runs.get(7));
        assertEquals(List.of("threads", "lazy"), List.copyOf(runs.get(7).point().keySet()));
    }

    @Test
    void aStudyIsReadWithTheLimitsOfAScenarioFile() {
        assertEquals("s.yaml:1: nested more than 16 levels deep", error("[".repeat(100_000)));
        assertEquals("s.yaml:3: nested more than 16 levels deep", error("scenario: munmap-storm\nvary:\n  threads: "
                + "[".repeat(20)));
        String alias = error("a: &a [1, 2]\nb: *a\n");
        assertTrue(alias.startsWith("s.yaml: not valid YAML: Number of aliases for non-scalar nodes exceeds"), alias);
        assertTrue(error("scenario: munmap-storm\nscenario: kernbench\n").startsWith("s.yaml:2: not valid YAML: "),
                "a key given twice");
        assertEquals("s.yaml: larger than " + Study.MAX_BYTES + " characters", error("#" + "x".repeat(Study.MAX_BYTES)));
    }

    @Test
    void aStudyFileMustBeARegularUtf8FileOfBoundedSize(@TempDir Path dir) throws IOException {
        Path binary = Files.write(dir.resolve("b.yaml"), new byte[] {(byte) 0xff, 'x'});
        assertEquals(binary + ": not a study file (not UTF-8 text)",
                assertThrows(ModelException.class, () -> Study.load(binary, null)).getMessage());
        assertEquals(dir + ": no such study file (not a regular file)",
                assertThrows(ModelException.class, () -> Study.load(dir, null)).getMessage());
        Path big = Files.writeString(dir.resolve("big.yaml"), "#" + "x".repeat(Study.MAX_BYTES));
        assertEquals(big + ": study file larger than " + Study.MAX_BYTES + " bytes",
                assertThrows(ModelException.class, () -> Study.load(big, null)).getMessage());
        Path ok = Files.writeString(dir.resolve("ok.yaml"), GRID);
        assertEquals("ok.yaml", Study.load(ok, null).file());
    }

    @Test
    void aMissingProfileFailsWhenTheStudyIsRead() {
        String e = error("scenario: munmap-storm\nset: {profile: /nonexistent/p.yaml}\n");
        assertTrue(e.startsWith("s.yaml: run 0 {}: unknown profile '/nonexistent/p.yaml'"), e);
    }

    @Test
    void aCampaignSplitsItsBudgetIntoSlices() {
        Study s = Study.parse("c.yaml", """
                explore:
                  scenario: kvm-preempted-flush
                  backend: kvm
                  variants: [{kvm.hostClearPreempted: plain-write}, {kvm.hostClearPreempted: xchg}]
                  budget: 11
                  tasks: 4
                """, null);
        assertTrue(s.isCampaign());
        Campaign c = s.campaign();
        assertEquals(List.of(new Campaign.Task(0, 0, 0, 2), new Campaign.Task(0, 1, 2, 2), new Campaign.Task(0, 2, 4, 1),
                new Campaign.Task(0, 3, 5, 1)), c.tasksOf(0));
        assertEquals(5, c.tasksOf(1).stream().mapToLong(Campaign.Task::count).sum());
    }
}
