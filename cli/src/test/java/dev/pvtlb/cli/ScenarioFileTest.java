package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.workload.Workload;
import dev.pvtlb.internal.workload.catalogue.Workloads;
import dev.pvtlb.report.RunReportJson;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.run.ScenarioFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScenarioFileTest {
    static final Path EXAMPLES = Path.of("..", "docs", "scenarios");

    @Test
    void everyBuiltInHasAnExampleAndEveryExampleLoads() throws Exception {
        List<Path> files;
        try (Stream<Path> s = Files.list(EXAMPLES)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        for (Workload w : Workloads.all()) {
            assertTrue(Files.exists(EXAMPLES.resolve(w.name() + ".yaml")), "no example for " + w.name());
        }
        for (Path f : files) {
            Scenario s = ScenarioFile.load(f);
            assertEquals(f.getFileName().toString().replace(".yaml", ""), s.name());
            s.guestConfig(0); // topology, profile, backend and host all accepted
        }
    }

    @Test
    void aFileAndTheBuilderGiveTheSameReport() {
        Scenario file = ScenarioFile.parse("t.yaml", """
                workload: munmap-storm
                params:
                  threads: 4
                  ops: 3
                topology: {sockets: 1, cores: 2, threads: 2, sharedTlb: true}
                backend: native
                knobs:
                  native.smtSiblingDedup: true
                seed: 9
                """);
        Scenario built = Scenario.of("munmap-storm").seed(9).set("threads", "4").set("ops", "3").set("topology", "1x2x2")
                .set("smt.sharedTlb", "true").set("native.smtSiblingDedup", "true");
        assertEquals(WorkloadBehaviourTest.strip(RunReportJson.toJson(Runner.run(built))), WorkloadBehaviourTest.strip(RunReportJson.toJson(Runner.run(file))));
    }

    /** host.topology in a file is the host mapping's topology key; its errors name it. */
    @Test
    void theHostsTopologyIsAKeyOfTheHostMapping() {
        Scenario s = ScenarioFile.parse("h.yaml", "workload: munmap-storm\nbackend: kvm\nvcpus: 4\nhost: {pcpus: 8, topology: 2x2x2}\n");
        assertEquals(new dev.pvtlb.smp.Topology(2, 2, 2), s.guestConfig(0).hostTopology());
        assertEquals("s.yaml:4: host.topology: host.topology must be SOCKETSxCORESxTHREADS (e.g. 1x4x2), got '2x2'",
                error("workload: munmap-storm\nbackend: kvm\nhost:\n  topology: 2x2\n"));
        assertEquals("s.yaml:4: host.sockets: unknown key (host keys: pcpus, vms, others, topology)",
                error("workload: munmap-storm\nbackend: kvm\nhost:\n  sockets: 2\n"));
    }

    @Test
    void errorsNameTheFileTheLineAndTheKey() {
        assertEquals("s.yaml:4: topology: topology cores must be between 1 and 4096, got 0",
                error("workload: munmap-storm\nseed: 1\ntopology:\n  cores: 0\n"));
        assertEquals("s.yaml:2: vcpus: vcpus must be between 1 and 4096, got 100000000",
                error("workload: munmap-storm\nvcpus: 100000000\n"));
        assertEquals("s.yaml:3: params.pages: must be a single value, not a list",
                error("workload: munmap-storm\nparams:\n  pages: [1, 2]\n"));
        assertTrue(error("workload: munmap-storm\nfrobnicate: 1\n").startsWith("s.yaml:2: frobnicate: unknown key"));
        assertTrue(error("workload: [unclosed\n").startsWith("s.yaml:2: not valid YAML"), error("workload: [unclosed\n"));
        assertTrue(error("a: &x [1]\nb: *x\nworkload: munmap-storm\n").startsWith("s.yaml:"));
        assertEquals("s.yaml:3: seed: given twice (first on line 2)", error("workload: munmap-storm\nseed: 1\nseed: 2\n"));
        assertEquals("s.yaml:3: nested more than 16 levels deep", error("workload: x\nparams:\n  a: " + "[".repeat(20)));
        assertEquals("s.yaml:1: nested more than 16 levels deep", error("[".repeat(100_000)));
    }

    @Test
    void commandLineOverridesTheFile(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("m.yaml");
        Files.writeString(f, "workload: munmap-storm\nparams:\n  ops: 2\n  threads: 2\nbackend: kvm\nseed: 5\n");
        MainTest.Result r = MainTest.pvtlb("run", f.toString(), "--backend", "native", "--seed", "6", "--set", "ops=1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("scenario munmap-storm  backend native  seed 6"), r.out());
        MainTest.Result bad = MainTest.pvtlb("run", dir.resolve("none.yaml").toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().strip().endsWith("none.yaml: no such scenario file"), bad.err());
    }

    private static String error(String text) {
        return assertThrows(ModelException.class, () -> ScenarioFile.parse("s.yaml", text)).getMessage();
    }
}
