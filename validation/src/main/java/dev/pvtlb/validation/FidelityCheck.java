package dev.pvtlb.validation;

import dev.pvtlb.config.Fidelity;
import dev.pvtlb.report.GeneratedBlock;
import dev.pvtlb.report.Html;
import dev.pvtlb.report.Json;
import dev.pvtlb.report.ProgressBar;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code pvtlb validate --fidelity-check}: every experiment run at both levels, each figure at
 * {@code exact} beside {@code fast}, with the difference and whether it is inside the tolerance
 * of docs/fidelity.md: a percentage change within 1 percentage point, a ratio within 2%, an
 * absolute time within 3%; and the two verdicts.
 */
public record FidelityCheck(List<ValidationResult> exact, List<ValidationResult> fast) {
    /** The block of docs/fidelity.md that {@code pvtlb validate --fidelity-check --markdown} writes. */
    public static final GeneratedBlock BLOCK = GeneratedBlock.of("pvtlb validate --fidelity-check --markdown");

    /** Runs {@code runs} at each level ({@code parallel} at once) and sets the experiments' results side by side. */
    static FidelityCheck run(List<ValidationExperiment> experiments, List<ValidationRun> runs, int parallel, ProgressBar progress)
            throws InterruptedException {
        RunResults e = ValidationRunner.run(runs.stream().map(r -> r.at(Fidelity.EXACT)).toList(), parallel, progress);
        RunResults f = ValidationRunner.run(runs.stream().map(r -> r.at(Fidelity.FAST)).toList(), parallel, progress);
        return new FidelityCheck(experiments.stream().map(x -> ValidationResult.of(x, e)).toList(),
                experiments.stream().map(x -> ValidationResult.of(x, f)).toList());
    }

    /** Whether {@code fast} is within the tolerance of its unit of {@code exact}. */
    static boolean within(FigureUnit unit, double exact, double fast) {
        if (Double.isNaN(exact) || Double.isNaN(fast)) {
            return Double.isNaN(exact) && Double.isNaN(fast);
        }
        return switch (unit) {
            case PERCENT -> Math.abs(fast - exact) <= 1.0;
            case RATIO -> exact == 0 ? fast == 0 : Math.abs(fast / exact - 1) <= 0.02;
            case NS -> exact == 0 ? fast == 0 : Math.abs(fast / exact - 1) <= 0.03;
        };
    }

    /** The difference as the tolerance reads it: percentage points for a %, else relative in %. */
    static String difference(FigureUnit unit, double exact, double fast) {
        if (unit == FigureUnit.PERCENT) {
            return String.format(Locale.ROOT, "%+.2f pp", fast - exact);
        }
        return exact == 0 ? (fast == 0 ? "0" : "inf") : String.format(Locale.ROOT, "%+.2f%%", 100 * (fast / exact - 1));
    }

    /** One figure of one experiment at both levels, or (figure null) the experiment's two verdicts. */
    private record Row(String id, ValidationFigure figure, double exact, double fast, String verdictExact, String verdictFast) {
        String name() {
            return figure == null ? "verdict" : figure.name();
        }

        String exactText() {
            return figure == null ? verdictExact : figure.unit().format(exact);
        }

        String fastText() {
            return figure == null ? verdictFast : figure.unit().format(fast);
        }

        String differenceText() {
            return figure == null ? "" : difference(figure.unit(), exact, fast);
        }

        boolean agrees() {
            return figure == null ? verdictExact.equals(verdictFast) : within(figure.unit(), exact, fast);
        }

        /** within or outside for a figure, same or differs for the verdicts. */
        String agreement() {
            return figure == null ? (agrees() ? "same" : "differs") : agrees() ? "within" : "outside";
        }
    }

    /** Every figure of every experiment, each experiment's verdicts after its figures. */
    private List<Row> rows() {
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < exact.size(); i++) {
            ValidationResult e = exact.get(i);
            ValidationResult f = fast.get(i);
            for (int j = 0; j < e.figures().size(); j++) {
                rows.add(new Row(e.experiment().id(), e.figures().get(j).figure(), e.figures().get(j).emulated(),
                        f.figures().get(j).emulated(), null, null));
            }
            rows.add(new Row(e.experiment().id(), null, Double.NaN, Double.NaN, e.verdict(), f.verdict()));
        }
        return rows;
    }

    /** Figures outside their tolerance plus experiments whose verdict differs: 0 when fast agrees with exact. */
    public int disagreements() {
        return (int) rows().stream().filter(r -> !r.agrees()).count();
    }

    private static final String ROW = "%-19s %-47s %-13s %-13s %-11s %s%n";

    /** The table {@code pvtlb validate --fidelity-check} prints. */
    public void print(PrintWriter out) {
        out.printf("fidelity check: every figure at exact and at fast (tolerance: %% within 1 pp, x within 2%%, ns within 3%%)%n%n");
        out.printf(ROW, "id", "figure", "exact", "fast", "difference", "");
        for (Row r : rows()) {
            String a = r.agreement();
            out.printf(ROW, r.id(), r.name(), r.exactText(), r.fastText(), r.differenceText(),
                    r.agrees() ? a : a.toUpperCase(Locale.ROOT));
        }
        int d = disagreements();
        out.printf("%n%s%n", d == 0 ? "fast agrees with exact on every figure and verdict"
                : d + " figure(s) or verdict(s) of fast outside the tolerance of exact");
    }

    /** {@code {"experiments": [{"id", "figures": [{"name", "unit", "exact", "fast", "within"}], "verdict_exact", "verdict_fast"}]}}. */
    public Map<String, Object> toMap() {
        List<Object> xs = new ArrayList<>();
        List<Object> figures = new ArrayList<>();
        for (Row r : rows()) {
            if (r.figure() != null) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("name", r.name());
                m.put("unit", r.figure().unit().symbol);
                m.put("exact", r.exact());
                m.put("fast", r.fast());
                m.put("within", r.agrees());
                figures.add(m);
                continue;
            }
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("id", r.id());
            x.put("figures", List.copyOf(figures));
            x.put("verdict_exact", r.verdictExact());
            x.put("verdict_fast", r.verdictFast());
            xs.add(x);
            figures.clear();
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("experiments", xs);
        m.put("disagreements", disagreements());
        return m;
    }

    /** The table as Markdown, for the generated block of docs/fidelity.md. */
    public String markdown() {
        StringBuilder b = new StringBuilder();
        b.append("| experiment | figure | exact | fast | difference | |\n|---|---|---|---|---|---|\n");
        for (Row r : rows()) {
            b.append("| ").append(r.id()).append(" | ").append(r.name()).append(" | ").append(r.exactText()).append(" | ")
                    .append(r.fastText()).append(r.figure() == null ? " | | " : " | " + r.differenceText() + " | ")
                    .append(r.agrees() ? r.agreement() : "**" + r.agreement() + "**").append(" |\n");
        }
        return b.toString();
    }

    /** {@code existing} (a page's text, or null) with its {@link #BLOCK} replaced by {@link #markdown()}; the table alone when it has none. */
    public String markdownInto(String existing) {
        return BLOCK.into(existing, markdown());
    }

    public String json() {
        return Json.write(toMap());
    }

    /** An HTML table of the same rows, for {@code --html}. */
    public String toHtml() {
        StringBuilder b = new StringBuilder(Html.head("pvtlb validate --fidelity-check"));
        b.append("<h1>pvtlb validate --fidelity-check</h1>\n<table><tr><th>experiment</th><th>figure</th><th>exact</th><th>fast</th>"
                + "<th>difference</th><th></th></tr>\n");
        for (Row r : rows()) {
            b.append("<tr><td>").append(Html.escape(r.id())).append("</td><td>").append(Html.escape(r.name()))
                    .append("</td><td>").append(Html.escape(r.exactText())).append("</td><td>").append(Html.escape(r.fastText()))
                    .append("</td><td>").append(Html.escape(r.differenceText())).append("</td><td class='")
                    .append(r.agrees() ? "pass'>" : "fail'>").append(r.agreement()).append("</td></tr>\n");
        }
        return b.append("</table>\n</body></html>\n").toString();
    }
}
