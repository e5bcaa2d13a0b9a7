package dev.pvtlb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Whether a figure's repetitions resolve its verdict: the figure give or take two standard
 * errors wholly inside or wholly outside its band. Constructed figures, no model runs.
 */
class VerdictResolutionTest {
    private static ValidationResult.Figure figure(Band band, double emulated, double standardError) {
        ValidationFigure f = new ValidationFigure("f", FigureUnit.PERCENT, 17, "+17%", band, r -> emulated);
        return new ValidationResult.Figure(f, emulated, standardError);
    }

    @Test
    void aFigureTwoStandardErrorsFromEveryEndIsResolvedEitherWay() {
        assertTrue(figure(Band.closed(5, 40), 20, 7).resolved(), "20 +- 14 lies inside [5, 40]");
        assertTrue(figure(Band.closed(5, 40), -17.23, 11.0).resolved(), "-17.23 + 22 stays below 5");
        assertTrue(figure(Band.atLeast(30), 61.67, 13.46).resolved(), "61.67 - 26.92 stays above 30");
    }

    @Test
    void aFigureWithAnEndWithinTwoStandardErrorsIsNot() {
        // kvm-sched-yield after a perturbation of the event order: -3.65% +- 3.65 against [+5%, +40%].
        assertFalse(figure(Band.closed(5, 40), -3.65, 4.5).resolved());
        // concurrent-flush's lowest point: -1.24% +- 0.72 against >= -1%.
        assertFalse(figure(Band.atLeast(-1), -1.24, 0.72).resolved());
        // A spread wider than the band straddles it from outside.
        assertFalse(figure(Band.closed(0.97, 1.05), 1.2, 0.2).resolved());
        // The absolute band of an access time, 20 ns +-35% = [13, 27] ns.
        assertFalse(figure(Band.around(20, 0.35), 26, 1).resolved());
        assertTrue(figure(Band.around(20, 0.35), 21.83, 0.0013).resolved());
    }

    @Test
    void aFigureWithoutASpreadOrAValueCountsAsResolved() {
        assertTrue(figure(Band.closed(5, 40), 4.99, 0).resolved(), "a counter's figure carries no spread");
        assertTrue(figure(Band.closed(5, 40), 4.99, Double.NaN).resolved());
        assertTrue(figure(Band.closed(5, 40), Double.NaN, 3).resolved(), "not computed: outside every band, no spread to judge");
    }

    @Test
    void theTablesMarkAnUnresolvedVerdictAndSayWhatTheMarkMeans() {
        ValidationResult.Figure counted = figure(Band.closed(5, 40), -3.65, 4.5);
        ValidationExperiment x = new ValidationExperiment("kvm-sched-yield", "source", "setup", null, List.of(),
                List.of(counted.figure()), null);
        ValidationResult r = new ValidationResult(x, List.of(counted), null);
        assertEquals("fail", r.verdict(), "the verdict itself is the band's, whatever the spread");
        assertFalse(r.resolved());
        assertEquals("fail*", r.markedVerdict());
        ValidationReport report = new ValidationReport(List.of(r));
        StringWriter text = new StringWriter();
        report.printTable(new PrintWriter(text));
        assertTrue(text.toString().contains("verdicts: kvm-sched-yield fail* (0 of 1 pass)\n* not resolved: an end of the band lies "
                + "within 2 standard errors of the figure, so more repetitions could turn the verdict (--reps 3)\n"), text.toString());
        assertTrue(report.toJson().contains("\"verdict\": \"fail\",\n      \"resolved\": false"), report.toJson());
        String md = ValidationMarkdown.tables(List.of(r));
        assertTrue(md.contains("| [+5.00%, +40.00%] | fail\\* |"), md);
        assertTrue(md.contains("\n\\* not resolved: an end of the band"), md);
        assertTrue(report.toHtml().contains("<span class='fail'>fail*</span>"), report.toHtml());
    }

    @Test
    void aHostReportsLegendDoesNotNameRepetitions() {
        ValidationResult.Figure counted = figure(Band.around(69501, 0.25), 86000, 1000);
        ValidationExperiment x = new ValidationExperiment("host-tlb-flush2", "this host", "tlb-flush2", null, List.of(),
                List.of(counted.figure()), null);
        StringWriter text = new StringWriter();
        new ValidationReport(List.of(new ValidationResult(x, List.of(counted), null)), "from the emulated figure's spread over "
                + "the rounds").printTable(new PrintWriter(text));
        assertTrue(text.toString().endsWith("so more repetitions could turn the verdict\n"), text.toString());
    }

    @Test
    void aResolvedResultCarriesNoMarkAndNoLegend() {
        ValidationResult.Figure counted = figure(Band.closed(5, 40), 20, 1);
        ValidationExperiment x = new ValidationExperiment("e", "source", "setup", null, List.of(), List.of(counted.figure()), null);
        ValidationResult r = new ValidationResult(x, List.of(counted), null);
        assertEquals("pass", r.markedVerdict());
        StringWriter text = new StringWriter();
        new ValidationReport(List.of(r)).printTable(new PrintWriter(text));
        assertFalse(text.toString().contains("not resolved"), text.toString());
        assertFalse(ValidationMarkdown.tables(List.of(r)).contains("not resolved"));
    }
}
