package dev.pvtlb.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.run.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A window branched from a run on each shipped backend (its host model, hypercalls and table-free
 * policy copied with the guest) ends where replaying its choices from boot ends. In this module's
 * tests, in the explorer's package, because the backends live here (the guest's BranchTest runs
 * native).
 */
class BranchOnEveryBackendTest {
    private static final long WINDOW_NS = 20_000;

    private static String state(Kernel k) {
        StringBuilder cpu = new StringBuilder();
        for (int c = 0; c < k.cpus().length; c++) {
            for (dev.pvtlb.stats.TimeCategory t : dev.pvtlb.stats.TimeCategory.values()) {
                cpu.append(k.cpuTime().get(c, t)).append(',');
            }
        }
        return k.engine().now() + " " + k.engine().steps() + " " + k.vmstat().asMap() + " " + cpu + " " + k.hazards().hazards();
    }

    @ParameterizedTest
    @ValueSource(strings = {"kvm", "xen-pv", "hyperv", "invlpgb", "arm64", "rar", "pvm"})
    void eachWindowIsTheRunItsChoicesMakeFromBoot(String backend) {
        Scenario s = Explorer.huntDefaults(Scenario.of("munmap-storm").backend(backend).set("threads", "4").set("vcpus", "4")
                .set("ops", "6").seed(3)).copy().defaultQuantum(0);
        List<ScheduleRun> windows = new ArrayList<>();
        List<String> ends = new ArrayList<>();
        List<Long> starts = new ArrayList<>();
        try (ScheduleRunner r = new ScheduleRunner(s)) {
            r.windowEnd = (k, start) -> {
                ends.add(state(k));
                starts.add(start);
            };
            r.runWindows(new RandomStrategy(1).schedule(0), WINDOW_NS, 2, new RandomStrategy(2)::schedule, 0,
                    (w, base, prefix) -> windows.add(ScheduleRunner.whole(w, base, prefix)) && windows.size() < 8);
        }
        assertEquals(8, windows.size(), backend + ": windows branched");
        try (ScheduleRunner r = new ScheduleRunner(s.copy())) {
            for (int i = 0; i < windows.size(); i++) {
                String[] again = {null};
                r.runTo(new ReplaySource(windows.get(i).choices(), true), starts.get(i) + WINDOW_NS, k -> again[0] = state(k));
                assertEquals(again[0], ends.get(i), backend + " window " + i);
            }
        }
        assertTrue(ends.stream().distinct().count() > 1, backend + ": windows end in different states");
    }
}
