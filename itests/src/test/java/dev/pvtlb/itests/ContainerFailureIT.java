package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/**
 * The failure path of the container tests: a container that exits non-zero without a report
 * must fail its test with the container's own output in the message, since the container is
 * gone by the time anyone reads the failure.
 */
class ContainerFailureIT {
    // Per test, not @BeforeAll: a class-level abort reports "Tests run: 0", hiding the skip.
    @BeforeEach
    void engine() {
        DockerEngine.requireOrSkip();
    }

    @Test
    void aFailedRunsMessageCarriesTheContainersError() {
        ContainerRun run = PvtlbContainers.run(List.of("run", "munmap-storm", "--set", "nosuchknob=1",
                "--json", PvtlbContainers.REPORT), PvtlbContainers.firstCpuset());

        // pvtlb's contract for bad input: exit 2, one line on stderr, no report.
        assertEquals(2, run.exitCode(), run::describe);
        List<String> err = run.stderr().lines().toList();
        assertEquals(1, err.size(), run::describe);
        assertTrue(err.getFirst().startsWith("pvtlb: unknown setting 'nosuchknob' ("), run::describe);
        assertTrue(run.json().isEmpty(), run::describe);

        AssertionFailedError failure = assertThrows(AssertionFailedError.class, run::report);
        String m = failure.getMessage();
        assertTrue(m.startsWith("pvtlb exited with 2, expected 0\n"), m);
        assertTrue(m.contains("--- container stderr ---\n" + err.getFirst() + "\n"), m);
        assertTrue(m.contains("pvtlb run munmap-storm --set nosuchknob=1 --json /out/report.json"), m);
    }

    /**
     * A deliberately broken backend (broken-native from guest's test sources: native with no IPI,
     * so no other CPU is ever flushed), registered through the SPI from guest's backend-tests jar
     * on the container JVM's class path, must fail the native row's checks, with the container's
     * output.
     */
    @Test
    void aDeliberatelyBrokenBackendFailsItsRowWithTheContainersOutput() {
        Backend nativeRow = BackendTable.ALL.stream().filter(b -> b.name().equals("native")).findFirst().orElseThrow();
        Backend row = new Backend("broken-native", nativeRow.scenario(), nativeRow.seed(), nativeRow.rules());
        ContainerRun run = PvtlbContainers.runWithTestBackends(row.runArgs(PvtlbContainers.REPORT),
                PvtlbContainers.firstCpuset());

        AssertionFailedError failure = assertThrows(AssertionFailedError.class, () -> BackendContainerIT.verify(row, run));
        String m = failure.getMessage();
        assertTrue(m.contains("nr_tlb_remote_flush_received"), m);
        assertTrue(m.contains("--backend broken-native"), m);
        assertTrue(m.contains("--- container stdout ---\nscenario munmap-storm  backend broken-native"), m);
    }
}
