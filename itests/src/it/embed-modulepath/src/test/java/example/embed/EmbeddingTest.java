package example.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.RandomStrategy;
import dev.pvtlb.explore.ScheduleRun;
import dev.pvtlb.explore.TraceFile;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.junit.PvtlbExtension;
import dev.pvtlb.junit.PvtlbGuest;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TraceEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The six things an embedding project does with pvtlb, each through the published API only:
 * run a scenario, compare backends, bring its own backend, test with the JUnit 5 extension,
 * subscribe to tracepoints, and explore for a hazard and replay it from its trace file.
 */
@ExtendWith(PvtlbExtension.class)
class EmbeddingTest {
    static Scenario small(String backend) {
        return Scenario.of("munmap-storm").set("vcpus", "4").set("threads", "4").set("ops", "5").backend(backend);
    }

    @Test
    void runsAScenario() {
        RunReport r = Runner.run(small("native"));
        assertEquals(20, r.counters().get("nr_tlb_remote_flush"), "4 threads x 5 munmaps, each with other CPUs in the mask");
        assertTrue(r.metrics().get("munmap_ns").mean() > 0);
    }

    @Test
    void comparesBackends() {
        RunReport bare = Runner.run(small("native"));
        RunReport xen = Runner.run(small("xen-pv"));
        assertTrue(bare.counters().get("ipis_sent") > 0);
        assertEquals(0, bare.counters().get("hypercalls"));
        assertTrue(xen.counters().get("hypercalls") > 0, "the hypervisors jar brings xen-pv");
    }

    @Test
    void bringsItsOwnBackendThroughTheServiceLoader() {
        RunReport own = Runner.run(small("embed-counting"));
        RunReport bare = Runner.run(small("native"));
        assertEquals("embed-counting", own.backend());
        assertEquals(bare.counters().get("nr_tlb_remote_flush"), own.counters().get("nr_tlb_remote_flush"),
                "it hands every flush to native_flush_tlb_multi");
        try (Guest g = small("embed-counting").boot(0)) {
            g.run(Long.MAX_VALUE);
            assertEquals(g.vmstat().get(Counter.NR_TLB_REMOTE_FLUSH), g.backend(CountingBackend.class).flushes);
        }
    }

    @Test
    void testsWithTheExtension(@PvtlbGuest(cpus = 4, backend = "xen-pv") Guest g) {
        small("xen-pv").setUp(g);
        g.run(Long.MAX_VALUE);
        assertEquals(0, g.liveTasks());
        assertTrue(g.vmstat().get(Counter.HYPERCALLS) > 0);
        assertEquals(0, g.hazards().count());
    }

    @Test
    void subscribesToTracepointsAndUnsubscribes() {
        List<TraceEvent> events = new ArrayList<>();
        Consumer<TraceEvent> sink = events::add;
        try (Guest g = small("native").boot(0)) {
            g.trace().subscribe(sink);
            g.run(Long.MAX_VALUE);
            int seen = events.size();
            assertTrue(seen > 0);
            g.trace().unsubscribe(sink);
            g.trace().tlbFlush(0, 0, dev.pvtlb.stats.TlbFlushReason.TLB_LOCAL_SHOOTDOWN, 1);
            assertEquals(seen, events.size(), "no event after unsubscribing");
        }
    }

    @Test
    void exploresForAHazardAndReplaysItFromItsTraceFile() {
        Scenario buggy = Scenario.of("gup-fast-vs-free").backend("xen-pv").set("tableFree", "immediate");
        ExploreResult r = new Explorer(buggy).explore(new RandomStrategy(1), 2000, 1e9);
        assertFalse(r.safe());
        assertEquals(HazardKind.WALK_AFTER_FREE, r.hazard().kind());
        TraceFile file = TraceFile.parse(r.toTraceFile().write(List.of()));
        ScheduleRun replay = Explorer.replay(file);
        assertTrue(file.reproducedBy(replay), "the trace file replays the hazard");
    }
}
