package dev.pvtlb.nativebridge;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NativeOsSelectTest {

    @Test
    void explicitChoicesNameThemselves() {
        assertEquals("ffm", NativeOs.select("ffm").name());
        assertEquals("jna", NativeOs.select("JNA").name());
    }

    @Test
    void autoIsFfmWhenNativeAccessIsEnabled() {
        // surefire runs with --enable-native-access=ALL-UNNAMED (parent pom)
        assertTrue(NativeOs.class.getModule().isNativeAccessEnabled());
        assertEquals("ffm", NativeOs.select("auto").name());
    }

    @Test
    void autoFallsBackToJnaWithoutNativeAccess() throws Exception {
        // A second JVM on the same class path, without --enable-native-access.
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                AutoSelectMain.class.getName()))
                .redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue());
        assertEquals("native access false, auto -> jna, getpid ok", out);
    }

    @Test
    void unknownPreferenceIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> NativeOs.select("jni"));
        assertEquals("unknown native backend 'jni': expected ffm, jna or auto", e.getMessage());
    }
}
