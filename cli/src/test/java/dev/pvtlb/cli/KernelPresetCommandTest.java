package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --set kernel=RELEASE} on the command line: the release's knobs in the report, explicit ones winning in either order. */
class KernelPresetCommandTest {
    private static String knobsOfRun(Path dir, String... sets) throws Exception {
        Path json = dir.resolve("r" + sets.length + String.join("", sets).hashCode() + ".json");
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run", "munmap-storm", "--seed", "7",
                "--set", "ops=3", "--set", "threads=2", "--json", json.toString()));
        for (String s : sets) {
            args.add("--set");
            args.add(s);
        }
        MainTest.Result r = MainTest.pvtlb(args.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return Files.readString(json);
    }

    @Test
    void aReleaseSetsItsDesignsAndAnExplicitKnobWinsInEitherOrder(@TempDir Path dir) throws Exception {
        String k = knobsOfRun(dir, "kernel=4.19");
        assertTrue(k.contains("\"native.concurrentFlush\": \"false\""), k);
        assertTrue(k.contains("\"lazy\": \"ipi\""), k);
        assertTrue(k.contains("\"kernel\": \"4.19\""), k);
        for (String[] order : new String[][] {{"kernel=4.19", "lazy=skip"}, {"lazy=skip", "kernel=4.19"}}) {
            String j = knobsOfRun(dir, order);
            assertTrue(j.contains("\"lazy\": \"skip\""), String.join(" ", order) + ": " + j);
            assertTrue(j.contains("\"native.concurrentFlush\": \"false\""), j);
        }
    }

    @Test
    void aKvmRunTakesTheReleasesHostKnobs(@TempDir Path dir) throws Exception {
        String k = knobsOfRun(dir, "backend=kvm", "pcpus=2", "kernel=5.10");
        assertTrue(k.contains("\"kvm.boostUserMode\": \"false\""), k);
        assertTrue(k.contains("\"kvm.pvSchedYield\": \"true\""), k);
        assertTrue(k.contains("\"host.scheduler\": \"cfs\""), k);
    }

    @Test
    void aScenarioFileReadsTheReleaseAsWrittenNotAsANumber(@TempDir Path dir) throws Exception {
        // 5.10 as a YAML float would be 5.1; the file's scalars are taken as text
        Path yaml = dir.resolve("k.yaml");
        Files.writeString(yaml, "workload: munmap-storm\nthreads: 2\nops: 3\nknobs:\n  kernel: 5.10\n  lazy: ipi\n");
        Path json = dir.resolve("k.json");
        MainTest.Result r = MainTest.pvtlb("run", yaml.toString(), "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        String j = Files.readString(json);
        assertTrue(j.contains("\"kernel\": \"5.10\""), j);
        assertTrue(j.contains("\"lazy\": \"ipi\""), j);
        assertTrue(j.contains("\"native.concurrentFlush\": \"false\""), j);
    }

    @Test
    void aReleaseNotInTheTableIsBadInputInOneLine() {
        // as for any knob value: exit 2 and one line on stderr (run has printed its header by then)
        MainTest.Result r = MainTest.pvtlb("run", "munmap-storm", "--set", "kernel=5.4");
        assertEquals(2, r.code());
        assertEquals("pvtlb: knob kernel cannot be '5.4' (allowed: none|4.19|5.2|5.3|5.10|6.1|6.13|6.15)", r.err().strip());
        // compare checks every run's knobs before it starts any
        MainTest.assertRefusedInOneLine("compare munmap-storm --backends native,kvm --set kernel=2.6");
    }
}
