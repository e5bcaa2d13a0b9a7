package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.pvops.PvBackends;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pvtlb assess} in this JVM, for designs on the class path and for jars refused before
 * they are loaded (a jar that loads would change the backends every later test sees: those runs
 * are in itests, AssessBackendJarIT).
 */
class AssessCommandTest {
    @Test
    void aDesignIsSetBesideNativeAndTheShippedDesignsOfItsKind() {
        assertEquals(List.of("native", "hyperv", "pvm", "xen-pv"), DesignPeers.of(PvBackends.byName("kvm")));
        assertEquals(List.of("native", "arm64", "rar"), DesignPeers.of(PvBackends.byName("invlpgb")));
        assertEquals(List.of("arm64", "invlpgb", "rar"), DesignPeers.of(PvBackends.byName("native")));
    }

    @Test
    void aReportCardOfCostAndSafety(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("a.json");
        Path html = dir.resolve("a.html");
        MainTest.Result r = MainTest.pvtlb("assess", "--backend", "xen-pv", "--threads", "2,4", "--vms", "1,2", "--budget", "20",
                "--quiet", "--parallel", "2", "--traces", dir.resolve("t").toString(), "--json", json.toString(), "--html", html.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().startsWith("assess xen-pv: "), r.out());
        assertTrue(r.out().contains("runs as a VM on the host model; compared with native, hyperv, kvm, pvm\n"), r.out());
        assertTrue(r.out().contains("cost under overcommit: munmap-storm ops=20 threads=8 by VMs per host"), r.out());
        assertTrue(r.out().contains("gup-fast-vs-free           rcu        SAFE     20 schedules\n"), r.out());
        assertTrue(r.out().endsWith("safety verdict: SAFE (0 hazards in 24 hunts, 0 not applicable)\n"), r.out());
        String j = Files.readString(json);
        assertTrue(j.contains("\"compared_with\": [\n    \"native\",\n    \"hyperv\",\n    \"kvm\",\n    \"pvm\"\n  ],"), j);
        assertTrue(j.contains("\"by_threads\": {"), j);
        assertTrue(j.contains("\"by_vms\": {"), j);
        assertTrue(j.contains("\"safety\": {\n    \"verdict\": \"SAFE\",\n    \"hazards\": 0,"), j);
        String page = Files.readString(html);
        assertTrue(page.contains("<svg"), "the cost charts");
        assertTrue(page.contains("<h1>Safety</h1>"), page);
        // the same seed, the same report
        MainTest.Result again = MainTest.pvtlb("assess", "--backend", "xen-pv", "--threads", "2,4", "--vms", "1,2", "--budget", "20",
                "--quiet", "--parallel", "1", "--traces", dir.resolve("t").toString());
        assertEquals(r.out(), again.out());
    }

    @Test
    void badJarsAndOptionsAreOneLineAndExitTwo(@TempDir Path dir) throws Exception {
        Path garbage = dir.resolve("garbage.jar");
        Files.writeString(garbage, "garbage");
        MainTest.assertRefusedInOneLine("assess --backend-jar " + garbage);
        Path empty = dir.resolve("empty.jar");
        try (ZipOutputStream z = new ZipOutputStream(Files.newOutputStream(empty))) {
            z.putNextEntry(new ZipEntry("README"));
            z.write("no backend here".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            z.closeEntry();
        }
        MainTest.Result r = MainTest.pvtlb("assess", "--backend-jar", empty.toString());
        assertEquals(2, r.code());
        assertEquals("pvtlb: backend jar " + empty + ": registers no pv_ops backend (no META-INF/services/dev.pvtlb.pvops.PvBackend)\n",
                r.err());
        MainTest.assertRefusedInOneLine("assess --backend-jar " + dir.resolve("missing.jar"));
        MainTest.assertRefusedInOneLine("assess");
        MainTest.assertRefusedInOneLine("assess --backend nope");
        MainTest.assertRefusedInOneLine("assess --backend kvm --threads 0");
        MainTest.assertRefusedInOneLine("assess --backend kvm --vms 2,2");
    }
}
