package dev.pvtlb.study;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.ModelException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SweepTest {
    static final String SMALL = "scenario: munmap-storm\nset: {ops: 1, vcpus: 2}\nvary: {threads: [2, 4]}\nseeds: [1, 2]\n";

    private static String sweep(Path dir, int parallel) throws Exception {
        StringWriter out = new StringWriter();
        int rc = new Sweep(Study.parse("small.yaml", SMALL, null), dir, new PrintWriter(out, true),
                new PrintWriter(new StringWriter(), true), parallel).run(null, null, java.util.Map.of());
        assertEquals(0, rc);
        return out.toString();
    }

    @Test
    void theRowsDoNotDependOnHowManyRunsRanAtOnce(@TempDir Path dir) throws Exception {
        String one = sweep(dir.resolve("one"), 1);
        sweep(dir.resolve("two"), 2);
        for (String f : List.of("runs.csv", "runs.jsonl", "summary.html")) {
            assertEquals(Files.readString(dir.resolve("one").resolve(f)), Files.readString(dir.resolve("two").resolve(f)), f);
        }
        List<String> csv = Files.readAllLines(dir.resolve("one/runs.csv"));
        assertEquals(5, csv.size());
        assertTrue(csv.get(0).startsWith("run,scenario,backend,threads,seed,reps,fidelity,metric."), csv.get(0));
        assertTrue(csv.get(4).startsWith("3,munmap-storm,native,4,2,1,"), csv.get(4));
        assertTrue(one.endsWith("4 runs: " + dir.resolve("one/runs.csv") + ", runs.jsonl, summary.html\n"), one);
        String html = Files.readString(dir.resolve("one/summary.html"));
        assertTrue(html.contains(">munmap_ns vs threads</text>"), "one chart writer: the report module's");
    }

    @Test
    void anOutputDirectoryThatCannotBeMadeIsRefusedBeforeAnyRun(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("f"), "x");
        Study s = Study.parse("small.yaml", SMALL, null);
        StringWriter out = new StringWriter();
        PrintWriter w = new PrintWriter(out, true);
        assertEquals("--out " + file + " is a file, not a directory",
                assertThrows(ModelException.class, () -> new Sweep(s, file, w, w, 1).run(null, null, java.util.Map.of()))
                        .getMessage());
        Path deep = dir.resolve("no/such");
        assertThrows(ModelException.class, () -> new Sweep(s, deep, w, w, 1).run(null, null, java.util.Map.of()));
        assertFalse(Files.exists(dir.resolve("no")));
        assertEquals("", out.toString(), "nothing ran");
        assertThrows(ModelException.class, () -> new Sweep(s, dir, w, w, 0));
    }
}
