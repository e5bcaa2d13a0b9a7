package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.cli.MainTest.Result;
import dev.pvtlb.profile.Profile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code pvtlb calibrate} on this host, with few rounds: what it writes, and that run takes it. */
class CalibrateCommandTest {
    private static final Profile BASE = Profile.load(Profile.DEFAULT);

    @Test
    void writesAProfileThatLoadsAndThatRunAccepts(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("host.yaml");
        Result r = pvtlb("calibrate", "--out", file.toString(), "--iterations", "20");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("wrote " + file), r.out());
        String yaml = Files.readString(file);
        Profile p = Profile.load(file.toString());
        assertEquals("host-calibrated", p.name());
        assertTrue(yaml.contains("\nextends: x86-skylake\n"), yaml);
        assertTrue(p.get("syscall.ns") > 0, yaml);
        for (String key : Profile.KEYS) {
            boolean set = yaml.lines().anyMatch(line -> line.startsWith(key + ":"));
            boolean listedAsLeft = yaml.substring(yaml.indexOf("# Left at")).contains(" " + key + ",")
                    || yaml.strip().endsWith(" " + key);
            assertTrue(set != listedAsLeft, key + " must be either set or listed as left at the base:\n" + yaml);
            if (!set) {
                assertEquals(BASE.get(key), p.get(key), key);
            }
        }

        Result run = pvtlb("run", "munmap-storm", "--set", "profile=" + file, "--set", "ops=3", "--set", "threads=2");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("profile host-calibrated"), run.out());
    }

    @Test
    void withoutOutPrintsTheProfileAndOneCpuMeasuresNoShootdown() {
        Result r = pvtlb("calibrate", "--cpus", "0", "--iterations", "10");
        assertEquals(0, r.code(), r.err());
        Profile p = Profile.parse(r.out(), "stdout");
        assertEquals("host-calibrated", p.name());
        assertTrue(r.out().contains("# Remote shootdown: not measured. No remote thread ran on a CPU other than the initiator's (cpu0)"),
                r.out());
        assertEquals(BASE.get("ipi.latency.min.ns"), p.get("ipi.latency.min.ns"));
        assertEquals(BASE.get("hypercall.ns"), p.get("hypercall.ns"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "calibrate --threads 0",
        "calibrate --threads 5000",
        "calibrate --cpus 0,x",
        "calibrate --cpus 99",
        "calibrate --iterations 0",
        "calibrate --bridge rust",
        "calibrate --out /nonexistent-pvtlb-dir/p.yaml",
        "calibrate extra-argument"
    })
    void badInputGetsExitTwoAndOneLine(String line) {
        MainTest.assertRefusedInOneLine(line);
    }
}
