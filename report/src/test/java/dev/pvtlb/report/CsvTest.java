package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {
    @Test
    void aPlainCellIsLeftAlone() {
        assertEquals("munmap_ns", Csv.cell("munmap_ns"));
        assertEquals("", Csv.cell(""));
    }

    @Test
    void commasQuotesAndEveryLineBreakAreQuoted() {
        assertEquals("\"a,b\"", Csv.cell("a,b"));
        assertEquals("\"say \"\"hi\"\"\"", Csv.cell("say \"hi\""));
        assertEquals("\"two\nlines\"", Csv.cell("two\nlines"));
        assertEquals("\"carriage\rreturn\"", Csv.cell("carriage\rreturn"), "a lone \\r splits a row in a spreadsheet too");
    }

    @Test
    void aLineQuotesEachCell() {
        assertEquals("1,\"x=1 y=2,3\",SAFE", Csv.line(List.of("1", "x=1 y=2,3", "SAFE")));
        assertEquals("", Csv.line(List.of()));
    }
}
