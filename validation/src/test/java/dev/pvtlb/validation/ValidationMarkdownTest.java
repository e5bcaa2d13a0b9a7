package dev.pvtlb.validation;

import static dev.pvtlb.validation.ValidationVerdictTest.experiment;
import static dev.pvtlb.validation.ValidationVerdictTest.report;
import static dev.pvtlb.validation.ValidationVerdictTest.smtPlacements;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Markdown of {@code validate --markdown}, from constructed results, and how it goes into a page. */
class ValidationMarkdownTest {
    private static List<ValidationResult> smt() {
        RunResults runs = smtPlacements(report(Map.of("munmap_ns", 3210.0, "access_ns", 1.41),
                        Map.of("nr_tlb_remote_flush", 4616L, "nr_tlb_remote_flush_received", 32262L)),
                report(Map.of("munmap_ns", 3235.0, "access_ns", 1.41),
                        Map.of("nr_tlb_remote_flush", 4616L, "nr_tlb_remote_flush_received", 16131L)));
        return List.of(ValidationResult.of(experiment("smt-dedup"), runs), ValidationResult.of(experiment("smt-dedup-absolute"), runs));
    }

    @Test
    void oneRowPerFigureInTheTextTablesUnitsAndTheVerdicts() {
        List<String> lines = ValidationMarkdown.tables(smt()).lines().toList();
        assertEquals("| experiment | figure | published | emulated | band | verdict |", lines.get(0));
        assertEquals("| smt-dedup | nr_tlb_remote_flush_received ratio | x0.49 | x0.50 | [x0.45, x0.55] | pass |", lines.get(3));
        assertEquals("| smt-dedup | munmap time change | -15.20% | +0.78% | [-30.00%, -5.00%] | fail |", lines.get(4));
        assertEquals("| smt-dedup | munmap time change, thread 1 alone | -15.20% | +0.78% | [-30.00%, -5.00%] | (fail) |", lines.get(7));
        assertEquals("| smt-dedup-absolute | munmap per call | 14072 ns | 3210 ns | 14072 ns +-35% | fail |", lines.get(10));
        assertEquals("| smt-dedup | x86-haswell | an Intel Haswell desktop, Core i7-4770 (4 cores x 2 threads, 3.4 GHz base, 8 MiB L3, "
                + "DDR3-1600) | 0 s warm-up, 0 s measured (0..0 s per run, set by ops) |", lines.get(lines.size() - 4),
                "the machine and the window of each experiment");
        assertEquals("Verdicts: smt-dedup fail, smt-dedup-absolute fail (0 of 2 pass).", lines.get(lines.size() - 1));
    }

    @Test
    void onlyTheMarkedBlockOfAPageIsReplaced() {
        String page = "# Title\n\ntext\n\n" + ValidationMarkdown.BEGIN + "\nold table\n" + ValidationMarkdown.END + "\n\nafter\n";
        assertEquals("# Title\n\ntext\n\n" + ValidationMarkdown.BEGIN + "\nnew\n" + ValidationMarkdown.END + "\n\nafter\n",
                ValidationMarkdown.into(page, "new\n"));
        assertEquals("new\n", ValidationMarkdown.into("no markers here\n", "new\n"));
        assertEquals("new\n", ValidationMarkdown.into(null, "new\n"));
    }
}
