package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.report.Json;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.validation.WorkloadTwin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code pvtlb validate --host}: the twins on this host and in the model, one experiment each. */
class ValidateHostTest {
    @Test
    void everyTwinIsAnExperimentWhoseEmulatedFigureIsThePlainRunsOne(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("h.json");
        Path html = dir.resolve("h.html");
        MainTest.Result r = MainTest.pvtlb("validate", "--host", "--profile", "x86-skylake", "--cpus", "0", "--threads", "1",
                "--rounds", "2", "--json", json.toString(), "--html", html.toString());
        assertEquals(0, r.code(), r.err());
        String page = Files.readString(html);
        assertTrue(page.contains("<h1>pvtlb validate --host</h1>") && page.contains("<h2>host-tlb-flush2 "), page);
        assertTrue(!page.contains("The experiments of validation.md"), "not validate's note on its own runs");
        String out = r.out();
        assertTrue(out.startsWith("validate --host: 3 workload(s) run on this host and in the model (backend "), out);
        String j = Files.readString(json);
        List<String> ids = Pattern.compile("\"id\": \"([^\"]+)\"").matcher(j).results().map(m -> m.group(1)).toList();
        // One CPU: madvise-touch, whose readers need CPUs of their own, is left out.
        assertEquals(List.of("host-munmap-storm", "host-mprotect-noise", "host-tlb-flush2"), ids);
        String backend = field(j, "backend");
        // tlb-flush2 with one thread on one CPU: ns per loop is 1e9 / loops_per_s of the plain run,
        // with the host kernel's mmap_lock (rwsem, or per-VMA from 6.4) and zero page (said in the setup).
        double loops = Runner.run(Scenario.of("tlb-flush2").backend(backend).set("profile", "x86-skylake").set("vcpus", "1")
                .set("threads", "1").set("pages", "64").set("ops", "100").set("mmapLock", WorkloadTwin.of("tlb-flush2", 1).params().get("mmapLock"))
                .set("zeroPage", "on")).metrics().get("loops_per_s").mean();
        String tf2 = j.substring(j.indexOf("\"id\": \"host-tlb-flush2\""));
        assertTrue(tf2.contains("vcpus=1 threads=1 pages=64 ops=100 mmapLock=" + WorkloadTwin.of("tlb-flush2", 1).params().get("mmapLock")
                + " zeroPage=on"), tf2);
        Matcher emulated = Pattern.compile("\"emulated\": ([-0-9.eE]+)").matcher(tf2);
        assertTrue(emulated.find(), tf2);
        assertEquals(Json.number(1e9 / loops), Json.number(Double.parseDouble(emulated.group(1))), tf2);
        assertTrue(j.contains("\"band_percent\": 25"), j);
        assertTrue(j.contains("\"rounds\": 2"), j);
        // Each figure says what every round measured and predicted: two host / emulated pairs,
        // the emulated one the same in both (a given profile, a deterministic model).
        Matcher pairs = Pattern.compile("median over 2 round\\(s\\), host / emulated each round: [0-9.]+ ns / ([0-9.]+) ns, "
                + "[0-9.]+ ns / ([0-9.]+) ns; last round: ").matcher(tf2);
        assertTrue(pairs.find(), tf2);
        assertEquals(pairs.group(1), pairs.group(2), tf2);
        assertTrue(out.contains("one standard error of each figure, from the emulated figure's spread over the rounds:"), out);
        for (String v : Pattern.compile("\"verdict\": \"([^\"]+)\"").matcher(j).results().map(m -> m.group(1)).toList()) {
            assertTrue(v.equals("pass") || v.equals("fail"), v);
        }
    }

    /**
     * Without --profile each round calibrates its own profile: the experiments name no built-in
     * machine (the reports said so, but the command stopped with "unknown profile 'calibrated each
     * round'" before it printed them).
     */
    @Test
    void withoutAProfileEachRoundCalibratesAndTheMachineIsThisHost(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("h.json");
        MainTest.Result r = MainTest.pvtlb("validate", "--host", "--cpus", "0", "--threads", "1", "--rounds", "1",
                "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains(", profile calibrated each round), band +-25% of the host's median\n"), r.out());
        assertTrue(r.out().contains("host-tlb-flush2     calibrated           this host, calibrated each round\n"), r.out());
        String j = Files.readString(json);
        assertTrue(j.contains("\"profile\": \"calibrated each round\""), j);
        assertTrue(j.contains("\"calibrations\": [\n    {\n      \"syscall.ns\": "), j);
    }

    private static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\": \"([^\"]+)\"").matcher(json);
        assertTrue(m.find(), name + " in " + json);
        return m.group(1);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "validate --profile x86-skylake",
        "validate --threads 2",
        "validate --host --only arm64-noise",
        "validate --host --sensitivity",
        "validate --host --threads 0",
        "validate --host --profile /nonexistent/p.yaml",
        "validate --host --cpus 99",
        "validate --rounds 2",
        "validate --host --rounds 0",
        "validate --host --rounds 26"
    })
    void badInputIsExitTwoInOneLineBeforeAnyMeasurement(String line) {
        MainTest.assertRefusedInOneLine(line);
    }
}
