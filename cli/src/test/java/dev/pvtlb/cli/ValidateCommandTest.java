package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.report.GeneratedBlock;
import dev.pvtlb.validation.Validation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ValidateCommandTest {
    @Test
    void anUnknownOnlyIsExitTwoWithTheIdsInOneLine() {
        MainTest.Result r = MainTest.pvtlb("validate", "--only", "nosuch");
        assertEquals(2, r.code());
        assertEquals("pvtlb: --only: unknown experiment 'nosuch'; experiments: concurrent-flush, lazy-tlb, rcu-table-free, "
                + "smt-dedup, smt-dedup-absolute, arm64-noise, kvm-boost, kvm-sched-yield\n", r.err());
        assertEquals("", r.out());
    }

    /**
     * Each of the ThunderX2 profile's ASSUMED figures at both ends: 102 variants of arm64-noise's three runs, in text and
     * JSON. The broadcast figure misses its band at the profile's values and at 99 ends; the three ends where it enters
     * the band are the keys that flip the verdict.
     */
    @Test
    void sensitivityVariesEveryAssumedFigureAtBothEndsOfItsRange(@TempDir Path dir) throws Exception {
        Path j = dir.resolve("s.json");
        MainTest.Result r = MainTest.pvtlb("validate", "--only", "arm64-noise", "--sensitivity", "--quiet", "--json", j.toString());
        assertEquals(0, r.code(), r.err());
        // Each end's line as it is judged, before the table: the first key of the ranges, at its low end.
        assertTrue(r.out().startsWith("sensitivity cache.l2.ns=3.6: arm64-noise breaks: victim time with noise / alone, broadcast TLBI x1.09 "
                + "(outside [x1.10, x1.45]); victim time with noise / alone, local TLBI x1.00\n"), r.out());
        assertTrue(r.out().contains("sensitivity: 52 ASSUMED figures, each at the low and the high end of its range (cache.l2.ns 3.6..6.8, cache.llc.ns 13.6..40, "),
                r.out());
        assertTrue(r.out().contains("arm64-noise         victim time with noise / alone, broadcast TLBI  x1.09       "
                + "x1.02 .. x1.36            [x1.10, x1.45]         breaks at 101 of 104"), r.out());
        assertTrue(r.out().contains("arm64-noise         victim time with noise / alone, local TLBI      x1.00       "
                + "x1.00 .. x1.00            [x0.97, x1.05]         holds at every end"), r.out());
        assertTrue(r.out().contains("  arm64-noise         tlbi.bystander.ns, tlbi.bystander.sync.ns, tlbi.sync.ns\n"), r.out());
        // The x86 designs' figures, and those of mechanisms its runs never enter (a DAX fault, the page
        // allocator's locks, a page-table free, shmem): no run of arm64-noise reads them, so their ends were not run.
        assertTrue(r.out().contains("ASSUMED keys none of an experiment's runs read (their ends give its figures at the profile's values):\n"
                + "  arm64-noise         fault.dax.ns, invlpgb.count_max, invlpgb.ns, page.lru_lock.page.ns, page.zone_lock.page.ns, "
                + "pgtable.free.ns, rar.latency.ns, rar.send.ns, rar.target.ns, rcu.call.ns, rcu.callback.ns, shmem.release.ns, tlbsync.ns\n"),
                r.out());
        assertTrue(r.out().endsWith("reproduced (every figure in its band at the profile's values and at both ends of every range): "
                + "arm64-noise not reproduced\n"), r.out());
        String json = Files.readString(j);
        assertTrue(json.contains("\"ends\": 104,\n"), json);
        assertTrue(json.contains("\"ends_holding\": 3,\n"), json);
        assertTrue(json.contains("\"flip_keys\": [\n          \"tlbi.bystander.ns\",\n          \"tlbi.bystander.sync.ns\",\n"
                + "          \"tlbi.sync.ns\"\n        ],\n"), json);
        assertTrue(json.contains("\"lowest\": 1.020859,\n"), json);
        assertTrue(json.contains("\"unread_keys\": [\n          \"fault.dax.ns\",\n          \"invlpgb.count_max\",\n"), json);
        assertTrue(json.contains("\"tlbi.sync.ns\": {"), json);
    }

    /**
     * --keys: only the named ranges are varied, each end writes its line as soon as it is judged (before the
     * table, in key order at any --parallel), and no experiment is judged reproduced on two of 52 ranges.
     */
    @Test
    void keysVaryOnlyTheNamedFiguresAndEachEndIsReportedAsItComes(@TempDir Path dir) throws Exception {
        Path j = dir.resolve("k.json");
        MainTest.Result r = MainTest.pvtlb("validate", "--only", "arm64-noise", "--sensitivity", "--keys", "tlbi.sync.ns,tlbi.bystander.ns",
                "--parallel", "2", "--quiet", "--json", j.toString());
        assertEquals(0, r.code(), r.err());
        String broadcast = "victim time with noise / alone, broadcast TLBI ";
        String local = "; victim time with noise / alone, local TLBI x1.00\n";
        assertTrue(r.out().startsWith("sensitivity tlbi.bystander.ns=5: arm64-noise breaks: " + broadcast + "x1.03 (outside [x1.10, x1.45])" + local
                + "sensitivity tlbi.bystander.ns=100: arm64-noise holds: " + broadcast + "x1.36" + local
                + "sensitivity tlbi.sync.ns=200: arm64-noise holds: " + broadcast + "x1.11" + local
                + "sensitivity tlbi.sync.ns=4000: arm64-noise breaks: " + broadcast + "x1.02 (outside [x1.10, x1.45])" + local
                + "validate: 1 experiment(s) of validation.md"), r.out());
        assertTrue(r.out().contains("sensitivity: 2 of the 52 ASSUMED figures, each at the low and the high end of its range "
                + "(tlbi.bystander.ns 5..100, tlbi.sync.ns 200..4000), one at a time\n"), r.out());
        assertTrue(r.out().contains("  arm64-noise         tlbi.bystander.ns, tlbi.sync.ns\n"), r.out());
        assertTrue(r.out().endsWith("reproduced: not judged, only 2 of the 52 ASSUMED figures were varied (--keys)\n"), r.out());
        String json = Files.readString(j);
        assertTrue(json.contains("\"partial\": true,\n"), json);
        assertTrue(json.contains("\"ends\": 4,\n"), json);
        assertTrue(json.contains("\"reproduced\": false,\n"), json);
        MainTest.assertRefusedInOneLine("validate --only arm64-noise --keys tlbi.ns");
        MainTest.assertRefusedInOneLine("validate --only arm64-noise --sensitivity --keys nosuch.ns");
        MainTest.assertRefusedInOneLine("validate --fidelity-check --keys tlbi.ns");
    }

    @Test
    void helpSaysAFailVerdictStillExitsZero() {
        MainTest.Result r = MainTest.pvtlb("validate", "--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("0   every experiment ran (a fail verdict is data"), r.out());
    }

    /** One cheap experiment end to end: the same figures as `pvtlb run` of its runs give, and the same bytes twice. */
    @Test
    void arm64NoiseMatchesItsRunsAndIsDeterministic(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        MainTest.Result first = MainTest.pvtlb("validate", "--only", "arm64-noise", "--quiet", "--json", a.toString(), "--html",
                dir.resolve("v.html").toString());
        assertEquals(0, first.code(), first.err());
        MainTest.Result second = MainTest.pvtlb("validate", "--only", "arm64-noise", "--quiet", "--parallel", "1", "--json", b.toString());
        assertEquals(first.out(), second.out());
        assertEquals(Files.readString(a), Files.readString(b));
        assertTrue(Files.readString(dir.resolve("v.html")).contains("<h2>arm64-noise"));

        double[] victim = new double[3];
        String[][] runs = {{"--set", "noise=false"}, {"--set", "arm64.flush=broadcast"}, {"--set", "arm64.flush=local"}};
        for (int i = 0; i < 3; i++) {
            Path j = dir.resolve("r" + i + ".json");
            String[] args = {"run", "mprotect-noise", "--backend", "arm64", "--set", "profile=arm64-thunderx2", "--set", "kernel=5.2", runs[i][0],
                runs[i][1],
                "--reps", "3", "--seed", "1",
                "--quiet", "--json", j.toString()};
            assertEquals(0, MainTest.pvtlb(args).code());
            Matcher m = Pattern.compile("\"victim_ms\": \\{\\s*\"mean\": ([-0-9.e]+)").matcher(Files.readString(j));
            assertTrue(m.find());
            victim[i] = Double.parseDouble(m.group(1));
        }
        String json = Files.readString(a);
        assertTrue(json.contains("\"emulated\": \"victim time with noise / alone, broadcast TLBI "
                + dev.pvtlb.validation.FigureUnit.RATIO.format(victim[1] / victim[0]) + "; victim time with noise / alone, local TLBI "
                + dev.pvtlb.validation.FigureUnit.RATIO.format(victim[2] / victim[0]) + "\""), json);
        assertTrue(json.contains("\"emulated\": " + dev.pvtlb.report.Json.number(victim[1] / victim[0]) + ",\n"), json);
    }

    /** --reps N: every run repeated N times, said in the header, the runs' command lines and the mark's legend. */
    @Test
    void repsRepeatsEveryRunAndSaysSo(@TempDir Path dir) throws Exception {
        Path j = dir.resolve("v.json");
        MainTest.Result r = MainTest.pvtlb("validate", "--only", "arm64-noise", "--reps", "2", "--quiet", "--json", j.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("validate: 1 experiment(s) of validation.md, each run with --reps 2 --seed 1 at fidelity fast\n"),
                r.out());
        String json = Files.readString(j);
        assertTrue(json.contains("\"pvtlb run mprotect-noise --backend arm64 --set profile=arm64-thunderx2 --set kernel=5.2 "
                + "--set arm64.flush=local --reps 2 --seed 1\""), json);
        assertEquals(3, json.split("--reps 2 --seed 1", -1).length - 1, "each of the three runs");
        MainTest.assertRefusedInOneLine("validate --only arm64-noise --reps 0");
        MainTest.assertRefusedInOneLine("validate --reps 2 --host");
        MainTest.assertRefusedInOneLine("validate --reps 2 --fidelity-check");
    }

    @Test
    void theHostsValidationHasNoWindowToDouble() {
        MainTest.assertRefusedInOneLine("validate --host --steady");
    }

    @Test
    void validateSteadyRunsEachRunTwiceAsLongAndSaysWhichFiguresHold() {
        MainTest.Result r = MainTest.pvtlb("validate", "--only", "arm64-noise", "--steady", "--quiet");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("arm64-noise         0 s warm-up, 0.0002555 s measured (0.0002482..0.0002696 s per run, set by ops)"),
                r.out());
        assertTrue(r.out().contains("arm64-noise         victim time with noise / alone, broadcast TLBI  x1.09       x1.09       +0.001"
                + "      +-0.09      yes"), r.out());
        assertTrue(r.out().contains("steady: 2 of 2 figures"), r.out());
    }

    /** End to end on the cheapest experiment: a page's block is refreshed in place, twice to the same bytes. */
    @Test
    void theCommandRefreshesThePageInPlace(@TempDir Path dir) throws Exception {
        Path page = dir.resolve("v.md");
        Files.writeString(page, "intro\n" + Validation.MARKDOWN_BEGIN + "\n" + GeneratedBlock.END + "\nend\n");
        MainTest.Result r = MainTest.pvtlb("validate", "--only", "arm64-noise", "--quiet", "--markdown", page.toString());
        assertEquals(0, r.code(), r.err());
        String once = Files.readString(page);
        assertTrue(once.startsWith("intro\n" + Validation.MARKDOWN_BEGIN + "\n| experiment | figure |"), once);
        assertTrue(once.contains("\n| arm64-noise | victim time with noise / alone, local TLBI | x1.00 | x1.00 | [x0.97, x1.05] | pass |\n"),
                once);
        assertTrue(once.endsWith("(0 of 1 pass).\n\nEvery run at fidelity fast (docs/fidelity.md).\n" + GeneratedBlock.END + "\nend\n"), once);
        assertEquals(0, MainTest.pvtlb("validate", "--only", "arm64-noise", "--quiet", "--markdown", page.toString()).code());
        assertEquals(once, Files.readString(page));
        MainTest.Result bad = MainTest.pvtlb("validate", "--only", "arm64-noise", "--markdown", dir.resolve("no/such/v.md").toString());
        assertEquals(2, bad.code());
        assertEquals(1, bad.err().lines().count(), bad.err());
    }
}
