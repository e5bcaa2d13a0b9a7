package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.cli.MainTest.Result;
import dev.pvtlb.report.Json;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.validation.WorkloadTwin;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code pvtlb host compare}: both columns, the emulated one equal to a plain run of the same scenario. */
class HostCompareCommandTest {

    private static double number(String json, String field) {
        Matcher m = Pattern.compile("\"" + field + "\": ([-0-9.]+)").matcher(json);
        assertTrue(m.find(), field + " in " + json);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void printsHostAndEmulatedColumnsAndTheRatio(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("cmp.json");
        Result r = pvtlb("host", "compare", "munmap-storm", "--threads", "1", "--profile", "x86-skylake",
                "--iterations", "20", "--host-shape", "readers", "--allow-shape-mismatch", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("same program on both sides: NO (--allow-shape-mismatch)"), r.out());
        assertTrue(r.out().contains("host (median)") && r.out().contains("emulated (mean)") && r.out().contains("emulated/host"),
                r.out());
        assertTrue(r.out().contains("profile x86-skylake, seed 1; vcpus=1 threads=1 pages=16"), r.out());
        String row = r.out().lines().filter(l -> l.startsWith("munmap_ns ")).findFirst().orElseThrow();
        assertEquals(6, row.trim().split("\\s+").length, row);

        // The emulated column is what `pvtlb run` gives for the same settings.
        double plain = Runner.run(Scenario.of("munmap-storm").set("vcpus", "1").set("threads", "1").set("pages", "16")
                .set("profile", "x86-skylake")).metrics().get("munmap_ns").mean();
        String j = Files.readString(json);
        assertEquals(Json.number(plain), Json.number(number(j, "emulated")), j);
        double host = number(j, "host_median");
        assertTrue(host > 0, j);
        assertEquals(plain / host, number(j, "ratio"), 1e-6 * Math.max(1, plain / host), j);
        assertTrue(row.contains(Json.number(Math.round(plain * 10) / 10.0)), row);
    }

    @Test
    void withoutAProfileItCalibratesThisHostFirst() {
        Result r = pvtlb("host", "compare", "munmap-storm", "--threads", "1", "--iterations", "10");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("profile host-calibrated (calibrated now: syscall.ns="), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("munmap_ns ")), r.out());
    }

    @Test
    void twoDifferentProgramsAreRefusedUnlessAllowed() {
        Result r = pvtlb("host", "compare", "munmap-storm", "--host-shape", "readers");
        assertEquals(2, r.code());
        assertEquals("pvtlb: host compare munmap-storm: the host runs 'one initiator maps, touches and unmaps while the "
                + "remote threads read the mapping' and the model 'every thread maps, touches, works on its own memory and "
                + "unmaps'; add --allow-shape-mismatch to compare them anyway", r.err().strip());
        assertEquals("", r.out());
    }

    @Test
    void anEmulatedOnlyWorkloadIsRefusedByName() {
        Result r = pvtlb("host", "compare", "ebizzy");
        assertEquals(2, r.code());
        assertEquals("pvtlb: 'ebizzy' is an emulated workload with no host benchmark; comparable: munmap-storm, "
                + "mprotect-noise, tlb-flush2, madvise-touch", r.err().strip());
    }

    @Test
    void aTwinRunsOneProgramOnBothSides(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("tf2.json");
        Result r = pvtlb("host", "compare", "tlb-flush2", "--threads", "1", "--profile", "x86-skylake", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("shapes    both: every thread (thread t on CPU t) writes its own 64 pages and "
                + "madvise(DONTNEED)s them; 100 times"), r.out());
        assertTrue(r.out().contains("same program on both sides: yes"), r.out());
        // The emulated figure: ns per loop of one thread, from what `pvtlb run` gives for the same
        // settings, with the host kernel's mmap_lock (rwsem, or per-VMA from 6.4) and zero page.
        double loops = Runner.run(Scenario.of("tlb-flush2").set("vcpus", "1").set("threads", "1").set("pages", "64")
                .set("ops", "100").set("mmapLock", WorkloadTwin.of("tlb-flush2", 1).params().get("mmapLock")).set("zeroPage", "on")
                .set("profile", "x86-skylake")).metrics().get("loops_per_s").mean();
        String j = Files.readString(json);
        assertEquals(Json.number(1e9 / loops), Json.number(number(j, "emulated")), j);
        assertTrue(number(j, "host_median") > 0, j);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "host compare ebizzy",
        "host compare no-such-scenario",
        "host compare",
        "host compare munmap-storm --threads 0",
        "host compare munmap-storm --cpus 99",
        "host compare munmap-storm --iterations -1",
        "host compare munmap-storm --profile /nonexistent/profile.yaml",
        "host compare munmap-storm --threads 100000",
        "host compare munmap-storm --json /nonexistent-pvtlb-dir/c.json",
        "host compare munmap-storm --backend no-such-backend",
        "host compare munmap-storm --host-shape sideways"
    })
    void badInputGetsExitTwoAndOneLineBeforeAnyMeasurement(String line) {
        MainTest.assertRefusedInOneLine(line);
    }
}
