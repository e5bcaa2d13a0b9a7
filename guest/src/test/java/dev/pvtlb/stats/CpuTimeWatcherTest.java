package dev.pvtlb.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.run.Scenario;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuTimeWatcherTest {
    @Test
    void theWatcherSeesEveryBookedNanosecondInTimeOrderAndOneFlowPerIpi() {
        // mmapLock=off: the two munmaps overlap, neither waits for the other's lock.
        Scenario s = Scenario.of("munmap-storm").set("vcpus", "2").set("threads", "2").set("ops", "1").set("mmapLock", "off");
        try (Guest g = s.boot(0)) {
            long[][] seen = new long[2][TimeCategory.values().length];
            long[] lastEnd = new long[2];
            List<String> flows = new ArrayList<>();
            g.cpuTime().watch(new CpuTime.Watcher() {
                @Override
                public void interval(int cpu, TimeCategory c, long startNs, long endNs) {
                    assertTrue(startNs >= lastEnd[cpu], "cpu" + cpu + " books in time order");
                    lastEnd[cpu] = endNs;
                    seen[cpu][c.ordinal()] += endNs - startNs;
                }

                @Override
                public void flow(String kind, int from, long sentNs, int to, long arrivalNs) {
                    flows.add(kind + " cpu" + from + "->cpu" + to + " " + sentNs + ".." + arrivalNs);
                }
            });
            g.run(Long.MAX_VALUE);
            for (int cpu = 0; cpu < 2; cpu++) {
                for (TimeCategory c : TimeCategory.values()) {
                    assertEquals(g.cpuTime().get(cpu, c), seen[cpu][c.ordinal()], "cpu" + cpu + " " + c);
                }
            }
            // Each thread's munmap IPIs the other CPU once; the arrival is the send plus the APIC latency.
            assertEquals(List.of("ipi cpu1->cpu0 163293..163993", "ipi cpu0->cpu1 163468..164168"), flows);
            assertEquals(2, g.vmstat().get(Counter.IPIS_SENT));
            assertEquals(0, g.vmstat().get(Counter.RESCHEDULE_IPIS), "both are flush IPIs");
        }
    }

    @Test
    void aResetRemovesTheWatcher() {
        CpuTime t = new CpuTime(1);
        List<String> seen = new ArrayList<>();
        t.watch(new CpuTime.Watcher() {
            @Override
            public void interval(int cpu, TimeCategory c, long startNs, long endNs) {
                seen.add(c.key + " " + startNs + ".." + endNs);
            }

            @Override
            public void flow(String kind, int from, long sentNs, int to, long arrivalNs) {
                seen.add(kind);
            }
        });
        t.book(0, TimeCategory.USER, 10, 25);
        t.flow("ipi", 0, 25, 0, 30);
        t.reset();
        t.book(0, TimeCategory.USER, 30, 40);
        assertEquals(List.of("user 10..25", "ipi"), seen);
        assertEquals(10, t.get(0, TimeCategory.USER));
    }
}
