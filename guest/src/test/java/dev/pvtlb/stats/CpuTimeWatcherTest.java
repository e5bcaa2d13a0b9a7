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
        Scenario s = Scenario.of("munmap-storm").set("vcpus", "2").set("threads", "2").set("ops", "1");
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
            // The munmaps write-lock mmap_lock (mmapLock=vma): thread 1 sleeps on it, its CPU idle and
            // lazy, so neither munmap's flush interrupts the other CPU; thread 0's unlock wakes thread 1
            // with a reschedule IPI, the one flow. Its arrival is the send plus the APIC latency.
            assertEquals(List.of("ipi cpu0->cpu1 164186..164886"), flows);
            assertEquals(1, g.vmstat().get(Counter.IPIS_SENT));
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
