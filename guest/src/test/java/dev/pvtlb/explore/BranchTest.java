package dev.pvtlb.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.run.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A window branched from a run (ScheduleRunner.runWindows, Kernel.branch) is the run that
 * replaying its choices from boot makes, and the run it branched from goes on as if it had not.
 */
class BranchTest {
    private static final long WINDOW_NS = 20_000;

    private static Scenario storm(String backend) {
        return Explorer.huntDefaults(Scenario.of("munmap-storm").backend(backend).set("threads", "4").set("vcpus", "4")
                .set("ops", "6").seed(3)).copy().defaultQuantum(0);
    }

    /** What a run has done: its clock, steps, counters, CPU time and hazards. */
    private static String state(Kernel k) {
        StringBuilder cpu = new StringBuilder();
        for (int c = 0; c < k.cpus().length; c++) {
            for (dev.pvtlb.stats.TimeCategory t : dev.pvtlb.stats.TimeCategory.values()) {
                cpu.append(k.cpuTime().get(c, t)).append(',');
            }
        }
        return k.engine().now() + " " + k.engine().steps() + " " + k.vmstat().asMap() + " " + cpu + " " + k.hazards().hazards();
    }

    @Test
    void eachWindowIsTheRunItsChoicesMakeFromBoot() {
        for (String backend : List.of("native")) {
            List<ScheduleRun> windows = new ArrayList<>();
            List<String> ends = new ArrayList<>();
            List<Long> times = new ArrayList<>();
            try (ScheduleRunner r = new ScheduleRunner(storm(backend))) {
                r.windowEnd = (k, start) -> {
                    ends.add(state(k));
                    times.add(start);
                };
                r.runWindows(new RandomStrategy(1).schedule(0), WINDOW_NS, 2, new RandomStrategy(2)::schedule, 0,
                        (w, b, prefix) -> windows.add(ScheduleRunner.whole(w, b, prefix)) && windows.size() < 10);
            }
            assertEquals(10, windows.size(), backend);
            try (ScheduleRunner r = new ScheduleRunner(storm(backend))) {
                for (int i = 0; i < windows.size(); i++) {
                    String[] again = {null};
                    // The window ran to its checkpoint's time plus WINDOW_NS; its clock stands at the last event before that.
                    long until = times.get(i) + WINDOW_NS;
                    r.runTo(new ReplaySource(windows.get(i).choices(), true), until, k -> again[0] = state(k));
                    assertEquals(again[0], ends.get(i), backend + " window " + i);
                }
            }
            // Two windows of one checkpoint differ in their choices, and so, mostly, in where they end.
            long differing = java.util.stream.IntStream.range(0, ends.size() / 2)
                    .filter(i -> !ends.get(2 * i).equals(ends.get(2 * i + 1))).count();
            assertEquals(true, differing >= 3, backend + ": " + differing + " of 5 checkpoints' windows differ");
        }
    }

    @Test
    void theBaseRunGoesOnAsIfNoWindowHadRun() {
        String[] plain = {null};
        try (ScheduleRunner r = new ScheduleRunner(storm("native"))) {
            r.runTo(new RandomStrategy(1).schedule(0), Long.MAX_VALUE, k -> plain[0] = state(k));
        }
        String[] windowed = {null};
        try (ScheduleRunner r = new ScheduleRunner(storm("native"))) {
            int[] n = {0};
            r.runWindows(new RandomStrategy(1).schedule(0), WINDOW_NS, 3, new RandomStrategy(2)::schedule, 0, (w, b, prefix) -> ++n[0] > 0);
            windowed[0] = state(r.guest());
            assertEquals(true, n[0] > 30, n[0] + " windows");
        }
        assertEquals(plain[0], windowed[0]);
    }
}
