package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MainTest {
    record Result(int code, String out, String err) { }

    /** {@code line} refused as bad input: exit 2, one line on stderr that says so without a stack trace, nothing on stdout. */
    static void assertRefusedInOneLine(String line) {
        Result r = pvtlb(line.split(" "));
        assertEquals(2, r.code(), line + " -> " + r.err());
        String err = r.err().strip();
        assertTrue(err.startsWith("pvtlb: "), err);
        assertEquals(1, err.lines().count(), err);
        assertFalse(err.contains("Exception"), err);
        assertEquals("", r.out());
    }

    static Result pvtlb(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void runPrintsCountersAndWritesJson(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("r.json");
        Result r = pvtlb("run", "munmap-storm", "--seed", "7", "--set", "ops=3", "--set", "threads=8", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("nr_tlb_remote_flush"), r.out());
        String j = Files.readString(json);
        assertTrue(j.contains("\"counters\""));
        assertTrue(j.contains("\"host_timing\""));
        assertTrue(j.contains("\"nr_tlb_remote_flush_received\": "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "scenarios", "backends", "host probe", "host bench", "calibrate", "explore", "replay",
        "bench", "compare", "demo", "assess", "sweep", "validate"})
    void everySubcommandAnswersHelpWithItsUsage(String command) {
        String[] words = (command + " --help").split(" ");
        Result r = pvtlb(words);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("Usage: pvtlb " + command + " [-h]"), r.out());
        assertEquals("", r.err());
        // "pvtlb help CMD" knows the top-level commands.
        String top = command.split(" ")[0];
        Result viaHelp = pvtlb("help", top);
        assertEquals(0, viaHelp.code(), viaHelp.err());
        assertTrue(viaHelp.out().startsWith("Usage: pvtlb " + top + " [-h]"), viaHelp.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "run no-such-scenario",
        "run munmap-storm --set vcpus=-4",
        "run munmap-storm --set vcpus=100000000",
        "run munmap-storm --set native.concurrentFlush=maybe",
        "run munmap-storm --set nosuchknob=1",
        "run munmap-storm --set threads",
        "run munmap-storm --set memory=1 --set ops=100000",
        "run munmap-storm --seed notanumber",
        "run munmap-storm --backend xen-pvv",
        "run munmap-storm --set profile=/nonexistent/profile.yaml",
        "run munmap-storm --reps 0",
        "run munmap-storm --set topology=1x4",
        "host bench no-such-bench",
        "host bench munmap-storm --cpus 99",
        "host bench munmap-storm --threads 0",
        "run munmap-storm --set smt.sharedTlb=yes",
        "run",
        "frobnicate"
    })
    void badInputGetsExitTwoAndOneLineWithoutAStackTrace(String line) {
        Result r = pvtlb(line.split(" "));
        assertEquals(2, r.code(), line + " -> " + r.err());
        String err = r.err().strip();
        assertFalse(err.isEmpty());
        assertTrue(err.startsWith("pvtlb: ") || err.contains("Usage"), err);
        assertFalse(err.contains("Exception"), err);
        assertFalse(err.contains("\tat "), err);
    }

    @Test
    void outOfGuestMemoryNamesTheSegment() {
        Result r = pvtlb("run", "munmap-storm", "--set", "memory=1", "--set", "threads=2");
        assertEquals(2, r.code());
        assertEquals("pvtlb: guest out of memory: all 255 frames of the 1 MiB segment are in use (raise memory in the scenario)",
                r.err().strip());
    }

    @Test
    void hostProbeReportsThisMachinesCpuCount() {
        Result r = pvtlb("host", "probe");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("logical_cpus:                 " + Runtime.getRuntime().availableProcessors()), r.out());
    }

    @Test
    void scenariosListsTheBuiltIns() {
        Result r = pvtlb("scenarios");
        assertEquals(0, r.code());
        // Name order: the catalogue's scenarios and the workloads together.
        assertTrue(r.out().startsWith("arm64-stale-cpumask    catalogue: "), r.out());
        assertTrue(r.out().contains("\nmunmap-storm           threads of one process"), r.out());
        assertTrue(r.out().contains("\n    processes        default 1\n"), r.out());
    }
}
