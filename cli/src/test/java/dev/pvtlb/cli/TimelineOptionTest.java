package dev.pvtlb.cli;

import static dev.pvtlb.cli.MainTest.pvtlb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** --timeline of run, explore and replay: Trace Event Format JSON, parsed here as Perfetto would read it. */
class TimelineOptionTest {
    /** The events of a timeline file (JSON is YAML 1.2: the YAML parser reads it). */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> events(Path file) throws Exception {
        Map<String, Object> top = (Map<String, Object>) new Load(LoadSettings.builder().setCodePointLimit(64 << 20).build())
                .loadFromString(Files.readString(file));
        return (List<Map<String, Object>>) top.get("traceEvents");
    }

    private static List<String> flows(List<Map<String, Object>> es) {
        return es.stream().filter(e -> "s".equals(e.get("ph")) || "f".equals(e.get("ph")))
                .map(e -> e.get("ph") + " " + e.get("name") + " id " + e.get("id") + " cpu" + e.get("tid") + " at " + e.get("ts")).toList();
    }

    @Test
    void aTwoCpuRunHasTwoTracksAndOneIpiEachWay(@TempDir Path dir) throws Exception {
        Path t = dir.resolve("t.json");
        // Two threads on two vCPUs, one munmap each: each munmap's shootdown IPIs the other CPU once
        // (mmapLock=off: with the lock, one munmap waits asleep for the other's, its CPU lazy).
        MainTest.Result r = pvtlb("run", "munmap-storm", "--set", "vcpus=2", "--set", "threads=2", "--set", "ops=1", "--set", "mmapLock=off",
                "--quiet", "--timeline", t.toString());
        assertEquals(0, r.code(), r.err());
        List<Map<String, Object>> es = events(t);
        assertEquals(List.of("process_name guest", "thread_name cpu0", "thread_name cpu1"), es.stream()
                .filter(e -> "M".equals(e.get("ph")) && !"thread_sort_index".equals(e.get("name")))
                .map(e -> e.get("name") + " " + ((Map<?, ?>) e.get("args")).get("name")).toList());
        Map<String, Integer> slices = new TreeMap<>();
        es.stream().filter(e -> "X".equals(e.get("ph"))).forEach(e -> slices.merge("cpu" + e.get("tid") + " " + e.get("name"), 1, Integer::sum));
        for (int c = 0; c < 2; c++) {
            Map<String, Integer> mine = new TreeMap<>();
            String cpu = "cpu" + c + " ";
            slices.forEach((k, v) -> {
                if (k.startsWith(cpu)) {
                    mine.put(k.substring(cpu.length()), v);
                }
            });
            assertEquals(Map.of("flush_handler", 1, "idle", 1, "ipi_wait", 2, "kernel", 195, "switch_mm", 1, "user", 192), mine, cpu);
        }
        assertEquals(12, slices.size(), "only cpu0 and cpu1: " + slices);
        assertEquals(List.of("s ipi id 1 cpu1 at 163.293", "f ipi id 1 cpu0 at 163.993",
                "s ipi id 2 cpu0 at 163.468", "f ipi id 2 cpu1 at 164.168"), flows(es));
        // Each IPI lands where its target's flush handler starts.
        assertEquals(List.of(163.993, 164.168), es.stream().filter(e -> "flush_handler".equals(e.get("name"))).map(e -> e.get("ts")).toList());

        Path again = dir.resolve("again.json");
        pvtlb("run", "munmap-storm", "--set", "vcpus=2", "--set", "threads=2", "--set", "ops=1", "--set", "mmapLock=off", "--quiet",
                "--timeline", again.toString());
        assertEquals(Files.readString(t), Files.readString(again), "one scenario and seed: one file, byte for byte");
    }

    @Test
    void exploreDrawsTheShrunkScheduleWithTheHazardAndReplayDrawsTheSame(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("h.trace");
        Path explored = dir.resolve("explore.json");
        MainTest.Result r = pvtlb("explore", "lazy-speculative-walk", "--set", "lazy=skip-nofree", "--budget", "200",
                "--seed", "4", "--trace", trace.toString(), "--timeline", explored.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("timeline written to " + explored), r.out());
        List<Map<String, Object>> es = events(explored);
        List<Map<String, Object>> hazards = es.stream().filter(e -> "i".equals(e.get("ph")) && "hazard".equals(e.get("name"))).toList();
        assertEquals(1, hazards.size(), hazards.toString());
        String why = (String) ((Map<?, ?>) hazards.getFirst().get("args")).get("explanation");
        assertTrue(why.startsWith("WALK_AFTER_FREE: speculative page walk read pte table frame"), why);

        Path replayed = dir.resolve("replay.json");
        MainTest.Result again = pvtlb("replay", trace.toString(), "--timeline", replayed.toString());
        assertEquals(1, again.code(), again.out() + again.err());
        assertEquals(es, events(replayed), "the replayed schedule is the explored one");
    }

    @Test
    void anUnwritableTimelineIsOneLineAndExitTwoBeforeAnyWork(@TempDir Path dir) {
        Path t = dir.resolve("no-such-dir").resolve("t.json");
        for (String[] args : List.of(new String[] {"run", "munmap-storm", "--quiet"},
                new String[] {"explore", "lazy-speculative-walk"}, new String[] {"replay", dir.resolve("x.trace").toString()})) {
            String[] full = java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of("--timeline", t.toString()))
                    .toArray(String[]::new);
            MainTest.Result r = pvtlb(full);
            assertEquals(2, r.code(), args[0] + ": " + r.err());
            assertEquals("pvtlb: --timeline " + t + ": no such directory " + t.getParent(), r.err().strip(), args[0]);
            assertEquals("", r.out(), args[0] + " did no work");
        }
    }
}
