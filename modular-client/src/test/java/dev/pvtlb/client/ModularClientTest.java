package dev.pvtlb.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link ModularClient} as a modular program: a JVM of its own with the client and every
 * library on the module path, started by module name, with no --add-modules, --add-exports or
 * --add-opens. The figures are those the same scenario gives on the class path
 * (docs/samples/Sample02CompareBackends.out): descriptors change where classes live, never
 * what the model computes.
 */
class ModularClientTest {
    @Test
    void runsAsNamedModulesWithTheClassPathFigures() throws Exception {
        List<String> modulePath = new ArrayList<>();
        modulePath.add(System.getProperty("client.classes"));
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(e).getFileName().toString();
            // The library and its dependencies; not the test engine, nor this module's test classes.
            boolean testTooling = name.startsWith("junit-") || name.startsWith("opentest4j") || name.startsWith("apiguardian")
                    || name.startsWith("surefire") || name.equals("test-classes");
            if (!testTooling && !e.equals(System.getProperty("client.classes"))) {
                modulePath.add(e);
            }
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "--enable-native-access=dev.pvtlb.guest,dev.pvtlb.nativebridge,com.sun.jna",
                "-p", String.join(File.pathSeparator, modulePath), "-m", "dev.pvtlb.client/dev.pvtlb.client.ModularClient")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(5, TimeUnit.MINUTES);
        assertEquals(0, p.exitValue(), out);
        assertEquals(String.join("\n",
                "client module: dev.pvtlb.client",
                "guest module: dev.pvtlb.guest",
                "exports dev.pvtlb.pvops: true",
                "exports dev.pvtlb.internal.sim: false",
                "backends: [arm64, hyperv, invlpgb, kvm, module-counting, module-sealed, native, pvm, rar, xen-pv]",
                "study module: dev.pvtlb.study",
                "native: nr_tlb_remote_flush=800 ipis_sent=1899 hypercalls=0 munmap_ns=5365.5",
                "kvm: nr_tlb_remote_flush=795 ipis_sent=2192 hypercalls=811 munmap_ns=145187.4",
                "module-counting: nr_tlb_remote_flush=800 ipis_sent=1899 hypercalls=0 munmap_ns=5365.5",
                "module-sealed: backend dev.pvtlb.client.sealed.SealedBackend: module dev.pvtlb.client neither exports "
                        + "package dev.pvtlb.client.sealed nor opens it to dev.pvtlb.guest, so the patched pv_ops cannot "
                        + "call it (add 'opens dev.pvtlb.client.sealed to dev.pvtlb.guest;')",
                "ffm getpid: true",
                "jna getpid: true",
                ""), out);
    }
}
