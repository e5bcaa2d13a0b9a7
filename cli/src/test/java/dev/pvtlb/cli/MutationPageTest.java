package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/mutation.md carries the table {@code pvtlb mutants --markdown} writes. The whole table takes
 * minutes; this reruns two of its rows on three of its workload columns (one that finds nothing
 * within its budget among them) and fails when the page says otherwise, until the page is
 * refreshed with {@code ./pvtlb mutants --markdown docs/mutation.md}.
 */
class MutationPageTest {
    static final List<String> COLUMNS = List.of("catalogue", "`tlb-torture`", "`madvise-touch`", "`tlb-flush2`");

    @Test
    void twoRowsOfTheMutationPageAreTodaysRun(@TempDir Path dir) throws Exception {
        String page = Files.readString(Path.of("..", "docs", "mutation.md"));
        assertTrue(page.contains(MutantsCommand.BLOCK.begin()), "docs/mutation.md has no generated block");
        Path fresh = dir.resolve("m.md");
        MainTest.Result r = MainTest.pvtlb("mutants", "--bugs", "range-flush-no-invlpg,tlb-gen-not-bumped", "--workloads",
                "tlb-torture,madvise-touch,tlb-flush2", "--quiet", "--markdown", fresh.toString());
        assertEquals(0, r.code(), r.err());
        Map<String, Map<String, String>> run = rows(Files.readString(fresh));
        Map<String, Map<String, String>> documented = rows(page);
        assertEquals(2, run.size(), run.toString());
        for (var e : run.entrySet()) {
            Map<String, String> doc = documented.get(e.getKey());
            assertTrue(doc != null, "docs/mutation.md has no row " + e.getKey());
            for (String c : COLUMNS) {
                assertEquals(e.getValue().get(c), doc.get(c), "docs/mutation.md is stale at " + e.getKey() + ", " + c
                        + ": run ./pvtlb mutants --markdown docs/mutation.md");
            }
        }
    }

    /** The table's rows by "bug backend", each cell by its column's header. */
    static Map<String, Map<String, String>> rows(String markdown) {
        Map<String, Map<String, String>> rows = new LinkedHashMap<>();
        List<String> header = null;
        for (String line : markdown.lines().toList()) {
            if (!line.startsWith("| ")) {
                continue;
            }
            List<String> cells = java.util.Arrays.stream(line.substring(2, line.length() - 2).split(" \\| ")).map(String::strip).toList();
            if (cells.get(0).equals("bug")) {
                header = cells;
            } else if (header != null) {
                Map<String, String> row = new LinkedHashMap<>();
                for (int i = 0; i < cells.size(); i++) {
                    row.put(header.get(i), cells.get(i));
                }
                rows.put(cells.get(0) + " " + cells.get(1), row);
            }
        }
        return rows;
    }
}
