package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pvtlb bench}: an entry runs exactly the scenario it names, and reports its memory. */
class BenchCommandTest {
    @Test
    void scaleEntryRunsTheFlushStormItNamesAndReportsHeapAndGuestMemory(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("b.json");
        MainTest.Result r = MainTest.pvtlb("bench", "--only", "scale-16", "--repeat", "2", "--json", json.toString());
        assertEquals(0, r.code(), r.err());
        String j = Files.readString(json);
        RunReport same = Runner.run(ScenarioArgs.build("munmap-storm", "native", List.of("vcpus=16", "threads=16",
                "processes=1", "ops=1024", "workset=16", "accesses=200", "pages=16", "memory=2048"), 1L, null));
        assertEquals(same.steps(), number(j, "steps"), j);
        assertEquals(2048, number(j, "guest_memory_mb"), j);
        assertEquals(2, number(j, "repeats"), j);
        assertTrue(number(j, "heap_mb") > 0, j);
        assertEquals(1, j.split("\"name\"").length - 1, "only the one entry ran: " + j);
        assertTrue(r.out().startsWith("entry "), r.out());
    }

    @Test
    void anOnlyThatMatchesNoEntryIsBadInput() {
        MainTest.Result r = MainTest.pvtlb("bench", "--only", "no-such-entry");
        assertEquals(2, r.code());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("pvtlb: no bench entry matches 'no-such-entry' (entries: munmap-storm, "), r.err());
    }

    private static long number(String json, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": ([0-9]+)").matcher(json);
        assertTrue(m.find(), key + " in " + json);
        return Long.parseLong(m.group(1));
    }
}
