package dev.pvtlb.report;

import java.util.List;

/** CSV cells and lines (RFC 4180): a cell is quoted only when it holds a comma, a quote or a line break. */
public final class Csv {
    private Csv() {}

    /** One cell; {@code \r} counts as a line break too, or a spreadsheet would split the row there. */
    public static String cell(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    /** The cells joined by commas, each quoted as {@link #cell} does (no line end). */
    public static String line(List<String> cells) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            b.append(i == 0 ? "" : ",").append(cell(cells.get(i)));
        }
        return b.toString();
    }
}
