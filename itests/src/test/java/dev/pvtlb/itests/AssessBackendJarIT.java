package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pvtlb assess --backend-jar}: a design from a jar that is not on the class path (guest's
 * backend-tests jar, whose broken-native forgets the remote CPUs) gets its report card, unsafe,
 * with a trace per hazard that {@code pvtlb replay --backend-jar} runs again. Each command is a
 * JVM of its own, as a user's would be: loading a jar changes the backends a JVM knows.
 */
class AssessBackendJarIT {
    private static PvtlbProcess.Ran pvtlb(Path dir, String... args) throws Exception {
        return PvtlbProcess.run(dir, args);
    }

    @Test
    void aBrokenDesignFromItsJarIsUnsafeAndEachHazardReplays(@TempDir Path dir) throws Exception {
        String jar = ProjectFiles.testBackendsJar().toString();
        Path json = dir.resolve("a.json");
        PvtlbProcess.Ran r = pvtlb(dir, "assess", "--backend-jar", jar, "--backend", "broken-native", "--threads", "2", "--budget", "10", "--quiet",
                "--json", json.toString(), "--traces", dir.resolve("traces").toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("assess broken-native: "), r.out());
        assertTrue(r.out().contains("runs on bare metal; compared with native, arm64, invlpgb, rar\n"), r.out());
        assertTrue(r.out().endsWith("safety verdict: UNSAFE (22 hazards in 24 hunts, 0 not applicable)\n"), r.out());
        String j = Files.readString(json);
        assertTrue(j.contains("\"verdict\": \"UNSAFE\",\n    \"hazards\": 22,"), j);
        Path trace = dir.resolve("traces").resolve("table-free-no-invalidate-broken-native-rcu.trace");
        assertTrue(Files.isRegularFile(trace), "a trace per hazard");
        PvtlbProcess.Ran replay = pvtlb(dir, "replay", trace.toString(), "--backend-jar", jar);
        assertEquals(1, replay.code(), replay.out() + replay.err());
        assertTrue(replay.out().startsWith("reproduced: WALK_AFTER_FREE"), replay.out());
        // without the jar the trace names a backend this JVM does not know: one line, exit 2
        PvtlbProcess.Ran unknown = pvtlb(dir, "replay", trace.toString());
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().startsWith("pvtlb: unknown backend 'broken-native'"), unknown.err());
        assertEquals(1, unknown.err().strip().lines().count(), unknown.err());
        // a jar that is not one: one line, exit 2
        Path bad = dir.resolve("bad.jar");
        Files.writeString(bad, "garbage");
        PvtlbProcess.Ran refused = pvtlb(dir, "assess", "--backend-jar", bad.toString());
        assertEquals(2, refused.code());
        assertTrue(refused.err().startsWith("pvtlb: backend jar " + bad + ": not a jar"), refused.err());
    }
}
