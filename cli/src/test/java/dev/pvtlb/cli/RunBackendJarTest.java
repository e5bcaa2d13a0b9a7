package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pvtlb run|compare|explore --backend-jar F}: a jar refused before anything runs is one line
 * and exit 2, as for assess and replay. Only jars that do not load are tried here (a jar that loads would add
 * backends every later test in this JVM sees): the run of a design from its jar is in itests,
 * ExternalKvmDesignIT.
 */
class RunBackendJarTest {
    private static Path jar(Path file, String entry, String text) throws Exception {
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(file))) {
            z.putNextEntry(new ZipEntry(entry));
            z.write(text.getBytes(StandardCharsets.UTF_8));
            z.closeEntry();
        }
        return file;
    }

    @Test
    void aBadJarIsOneLineAndExitTwoBeforeTheRun(@TempDir Path dir) throws Exception {
        Path garbage = dir.resolve("garbage.jar");
        Files.writeString(garbage, "garbage");
        MainTest.assertRefusedInOneLine("run munmap-storm --backend-jar " + garbage);
        MainTest.assertRefusedInOneLine("run munmap-storm --backend-jar " + dir.resolve("missing.jar"));

        Path empty = jar(dir.resolve("empty.jar"), "README", "no backend here");
        MainTest.Result r = MainTest.pvtlb("run", "munmap-storm", "--backend-jar", empty.toString());
        assertEquals(2, r.code());
        assertEquals("pvtlb: backend jar " + empty + ": registers no pv_ops backend (no META-INF/services/dev.pvtlb.pvops.PvBackend)\n",
                r.err());
        assertEquals("", r.out(), "refused before the header is printed");

        // A services file naming a class the jar does not hold (here: one already on the class path).
        Path foreign = jar(dir.resolve("foreign.jar"), "META-INF/services/dev.pvtlb.pvops.PvBackend",
                "dev.pvtlb.internal.backends.KvmBackend$Provider\n");
        r = MainTest.pvtlb("run", "munmap-storm", "--backend-jar", foreign.toString());
        assertEquals(2, r.code(), r.err());
        assertEquals("pvtlb: backend jar " + foreign + ": its services file names no loadable backend\n", r.err());

        Path broken = jar(dir.resolve("broken.jar"), "META-INF/services/dev.pvtlb.pvops.PvBackend", "no.such.Provider\n");
        MainTest.assertRefusedInOneLine("run munmap-storm --backend-jar " + broken);
    }

    @Test
    void compareAndExploreRefuseABadJarTheSameWay(@TempDir Path dir) throws Exception {
        Path empty = jar(dir.resolve("empty.jar"), "README", "no backend here");
        String refusal = "pvtlb: backend jar " + empty + ": registers no pv_ops backend (no META-INF/services/dev.pvtlb.pvops.PvBackend)\n";
        for (String[] args : new String[][] {
                {"compare", "munmap-storm", "--vary", "backend=native,kvm", "--backend-jar", empty.toString()},
                {"explore", "gup-fast-vs-free", "--budget", "5", "--backend-jar", empty.toString()}}) {
            MainTest.Result r = MainTest.pvtlb(args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
            assertEquals(refusal, r.err(), String.join(" ", args));
            assertEquals("", r.out(), "refused before anything runs: " + String.join(" ", args));
        }
    }

    @Test
    void theOptionIsListedInTheHelpOfEachCommandThatRunsAScenario() {
        for (String command : new String[] {"run", "compare", "explore"}) {
            MainTest.Result r = MainTest.pvtlb(command, "--help");
            assertEquals(0, r.code(), r.err());
            assertTrue(r.out().contains("--backend-jar=F"), command + ": " + r.out());
        }
    }
}
