package dev.pvtlb.validation;

import static dev.pvtlb.validation.ValidationVerdictTest.experiment;
import static dev.pvtlb.validation.ValidationVerdictTest.report;
import static dev.pvtlb.validation.ValidationVerdictTest.smtPlacements;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** The JSON document, the table and the page, from constructed results. */
class ValidationReportTest {
    static ValidationReport smtReport() {
        RunResults runs = smtPlacements(report(Map.of("munmap_ns", 3210.0, "access_ns", 1.41),
                        Map.of("nr_tlb_remote_flush", 4616L, "nr_tlb_remote_flush_received", 32262L)),
                report(Map.of("munmap_ns", 3235.0, "access_ns", 1.41),
                        Map.of("nr_tlb_remote_flush", 4616L, "nr_tlb_remote_flush_received", 16131L)));
        return new ValidationReport(List.of(ValidationResult.of(experiment("smt-dedup"), runs),
                ValidationResult.of(experiment("smt-dedup-absolute"), runs)));
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonHasTheAcceptanceInterfaceAndEachFiguresNumbers() {
        // JSON is YAML 1.2, so the YAML parser reads it back as maps and lists.
        Map<String, Object> doc = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(smtReport().toJson());
        List<Map<String, Object>> exps = (List<Map<String, Object>>) doc.get("experiments");
        assertEquals(List.of("smt-dedup", "smt-dedup-absolute"), exps.stream().map(e -> e.get("id")).toList());
        Map<String, Object> smt = exps.get(0);
        assertEquals(List.of("id", "source", "setup", "profile", "window", "published", "emulated", "band", "verdict", "resolved", "figures", "runs"),
                List.copyOf(smt.keySet()));
        assertEquals(Map.of("warmup_s", 0, "measured_s", 0, "shortest_s", 0, "longest_s", 0, "length", "ops"), smt.get("window"),
                "constructed reports simulate no time");
        assertEquals("x86-haswell", smt.get("profile"), "the machine of Alex Shi's measurement");
        assertEquals("fail", smt.get("verdict"));
        assertEquals("nr_tlb_remote_flush ratio x1.00; nr_tlb_remote_flush_received ratio x0.49; munmap time change -15.20%; "
                + "access time change -20.00%; munmap time change, thread 0 alone -15.20%; munmap time change, thread 1 alone "
                + "-15.20%; access time change, thread 0 alone -20.00%; access time change, thread 1 alone -20.00%",
                smt.get("published"));
        assertEquals("nr_tlb_remote_flush ratio x1.00; nr_tlb_remote_flush_received ratio x0.50; munmap time change +0.78%; "
                + "access time change +0.00%; munmap time change, thread 0 alone +0.78%; munmap time change, thread 1 alone "
                + "+0.78%; access time change, thread 0 alone +0.00%; access time change, thread 1 alone +0.00%",
                smt.get("emulated"));
        Map<String, Object> munmap = ((List<Map<String, Object>>) smt.get("figures")).get(2);
        assertEquals("munmap time change", munmap.get("figure"));
        assertEquals("%", munmap.get("unit"));
        assertEquals(-15.200398, munmap.get("published"));
        assertEquals(0.778816, munmap.get("emulated"));
        assertEquals(Map.of("text", "[-30.00%, -5.00%]", "low", -30, "high", -5, "ends", "inclusive"), munmap.get("band"));
        assertEquals("fail", munmap.get("verdict"));
        assertEquals(true, munmap.get("resolved"), "constructed runs have no spread");
        Map<String, Object> abs = ((List<Map<String, Object>>) exps.get(1).get("figures")).get(0);
        assertEquals(Map.of("text", "14072 ns +-35%", "around", 14072, "within_fraction", 0.35), abs.get("band"));
        assertEquals(List.of("pvtlb run munmap-storm --set profile=x86-haswell --set kernel=4.19 --set shape=munmap.c --set ops=4096 --set mainCpu=0 "
                + "--set native.smtSiblingDedup=false --reps 3 --seed 1", "pvtlb run munmap-storm --set profile=x86-haswell --set kernel=4.19 --set shape=munmap.c "
                + "--set ops=4096 --set mainCpu=4 --set native.smtSiblingDedup=false --reps 3 --seed 1"), exps.get(1).get("runs"));
        assertEquals(List.of(), doc.get("not_run_yet"));
    }

    @Test
    void theTableHasOneRowPerFigureAndTheVerdicts() {
        StringWriter s = new StringWriter();
        smtReport().print(new PrintWriter(s, true));
        List<String> lines = s.toString().lines().toList();
        assertEquals("smt-dedup           munmap time change                              -15.20%     +0.78%      "
                + "[-30.00%, -5.00%]      fail", lines.get(5));
        assertEquals("smt-dedup           munmap time change, thread 1 alone              -15.20%     +0.78%      "
                + "[-30.00%, -5.00%]      (fail)", lines.get(8));
        assertEquals("smt-dedup-absolute  munmap per call                                 14072 ns    3210 ns     "
                + "14072 ns +-35%         fail", lines.get(11));
        assertEquals("verdicts: smt-dedup fail, smt-dedup-absolute fail (0 of 2 pass)", lines.get(lines.size() - 1));
    }

    @Test
    void thePageIsSelfContainedWithPublishedAndEmulatedSideBySide() {
        String page = smtReport().toHtml();
        assertTrue(page.startsWith("<!DOCTYPE html>"));
        assertFalse(page.contains("<script") || page.contains(" src=") || page.contains("<link"), page); // nothing loaded from elsewhere
        assertTrue(page.contains("<h2>smt-dedup <span class='fail'>fail</span></h2>"), page);
        assertEquals(14, page.split("<svg", -1).length - 1, "one chart per figure, details included");
        assertTrue(page.contains("<td>32262 -&gt; 15912</td>"), page);
        // The emulated cell carries its standard error (0 here: the constructed runs have no spread).
        assertTrue(page.contains("<td>+0.78% +-0.00%</td>"), page);
    }

    /** validate --host without --profile calibrates each round: its experiments name no built-in machine, and every report says so. */
    @Test
    void aHostExperimentCalibratedEachRoundNamesItsMachineInEveryFormat() {
        ValidationFigure f = new ValidationFigure("munmap per call", FigureUnit.NS, 3000, "3000 ns", Band.around(3000, 0.25), r -> 3100);
        ValidationExperiment x = new ValidationExperiment("host-munmap-storm", "this host", "munmap-storm", null, List.of(), List.of(f), null);
        ValidationReport report = new ValidationReport(List.of(new ValidationResult(x, List.of(new ValidationResult.Figure(f, 3100, 0)), null)));
        StringWriter text = new StringWriter();
        report.printTable(new PrintWriter(text));
        assertTrue(text.toString().contains("host-munmap-storm   calibrated           this host, calibrated each round\n"), text.toString());
        assertTrue(report.toJson().contains("\"profile\": \"calibrated\""), report.toJson());
        assertTrue(report.toHtml().contains("machine: calibrated, this host, calibrated each round"), report.toHtml());
        assertTrue(ValidationMarkdown.tables(List.of(report.results().get(0)))
                .contains("| host-munmap-storm | calibrated | this host, calibrated each round |"));
    }
}
