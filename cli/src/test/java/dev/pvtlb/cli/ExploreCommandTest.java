package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExploreCommandTest {
    @Test
    void aSafeVariantExitsZeroWithTheScheduleCount() {
        MainTest.Result r = pvtlb("explore", "lazy-speculative-walk", "--set", "lazy=skip", "--budget", "200", "--seed", "4");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("schedules: 200 in "), r.out());
        assertTrue(r.out().contains("verdict: SAFE (no hazard in 200 schedules)"), r.out());
    }

    @Test
    void aHazardExitsOneWritesATraceAndReplayReproducesIt(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.trace");
        MainTest.Result r = pvtlb("explore", "lazy-speculative-walk", "--set", "lazy=skip-nofree", "--budget", "200",
                "--seed", "4", "--trace", trace.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("verdict: HAZARD WALK_AFTER_FREE found in schedule "), r.out());
        assertTrue(r.out().contains("speculative page walk read pte table frame"), r.out());
        String text = Files.readString(trace);
        assertTrue(text.startsWith("# pvtlb hazard trace"), text);
        MainTest.Result again = pvtlb("replay", trace.toString());
        assertEquals(1, again.code(), again.out() + again.err());
        assertTrue(again.out().startsWith("reproduced: WALK_AFTER_FREE at "), again.out());

        // An edited answer is refused, as is a cut file.
        Files.writeString(trace, text.replaceFirst("\nc (\\w+) (\\d+) 0\n", "\nc $1 $2 1\n"));
        MainTest.Result edited = pvtlb("replay", trace.toString());
        assertEquals(2, edited.code(), edited.out() + edited.err());
        assertEquals("pvtlb: trace file was changed or damaged: its checksum does not match its contents", edited.err().strip());
        Files.writeString(trace, text.substring(0, text.indexOf("\nchecksum ")));
        MainTest.Result cut = pvtlb("replay", trace.toString());
        assertEquals(2, cut.code());
        assertEquals("pvtlb: trace file is truncated: its last line is not the checksum", cut.err().strip());
    }

    @Test
    void aTraceOfAnUnknownScenarioIsRefused(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.trace");
        pvtlb("explore", "lazy-speculative-walk", "--set", "lazy=skip-nofree", "--budget", "200", "--trace", trace.toString());
        String text = Files.readString(trace);
        // Re-sign a trace naming another scenario: replay must refuse it by name, not run something else.
        String body = text.lines().filter(l -> !l.startsWith("#") && !l.startsWith("checksum "))
                .map(l -> l.startsWith("scenario ") ? "scenario no-such-scenario" : l).reduce("", (a, b) -> a + b + "\n");
        java.security.MessageDigest md = java.security.MessageDigest.getInstance("SHA-256");
        String sum = java.util.HexFormat.of().formatHex(md.digest(body.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        Files.writeString(trace, body + "checksum " + sum + "\n");
        MainTest.Result r = pvtlb("replay", trace.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.err().startsWith("pvtlb: unknown scenario 'no-such-scenario'"), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "explore lazy-speculative-walk --strategy bogus",
        "explore lazy-speculative-walk --budget 0",
        "explore lazy-speculative-walk --strategy pct --depth 0",
        "explore lazy-speculative-walk --strategy exhaustive --bound -1",
        "explore lazy-speculative-walk --set lazy=sometimes",
        "explore no-such-scenario",
        "replay /nonexistent/trace"
    })
    void badInputGetsExitTwoAndOneLine(String line) {
        MainTest.Result r = pvtlb(line.split(" "));
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("pvtlb: "), r.err());
    }
}
