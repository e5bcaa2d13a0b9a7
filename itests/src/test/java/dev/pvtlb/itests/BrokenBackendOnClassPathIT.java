package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

/**
 * The broken backend's path into pvtlb without a container engine: the same command as
 * {@link ContainerFailureIT}'s container (the launcher's flags, pvtlb.jar and guest's
 * backend-tests jar on the class path), run by this machine's JDK 25. broken-native must be
 * found through the SPI from the second jar, and the native row's checks must fail on it.
 */
class BrokenBackendOnClassPathIT {
    @Test
    void brokenNativeFromTheTestJarFailsTheNativeRow(@TempDir Path dir) throws Exception {
        Backend nativeRow = BackendTable.ALL.stream().filter(b -> b.name().equals("native")).findFirst().orElseThrow();
        Backend row = new Backend("broken-native", nativeRow.scenario(), nativeRow.seed(), nativeRow.rules());
        Path json = dir.resolve("report.json");
        List<String> args = row.runArgs(json.toString());

        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(LauncherFlags.read(ProjectFiles.launcher()));
        cmd.addAll(List.of("-cp", ProjectFiles.jar() + File.pathSeparator + ProjectFiles.testBackendsJar(),
                ProjectFiles.MAIN_CLASS));
        cmd.addAll(args);
        Path err = dir.resolve("stderr.txt");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        ContainerRun run = new ContainerRun("(none: a JVM on this machine)", args, "none", code, out,
                Files.readString(err), Files.exists(json) ? Optional.of(Files.readString(json)) : Optional.empty());

        assertEquals(0, code, run::describe);
        AssertionFailedError failure = assertThrows(AssertionFailedError.class, () -> BackendContainerIT.verify(row, run));
        String m = failure.getMessage();
        assertTrue(m.startsWith("broken-native report breaks 2 rule(s): "), m);
        assertTrue(m.contains("nr_tlb_remote_flush_received"), m);
        assertTrue(m.contains("ipis_sent"), m);
        assertTrue(m.contains("--- container stdout ---\nscenario munmap-storm  backend broken-native"), m);
    }
}
