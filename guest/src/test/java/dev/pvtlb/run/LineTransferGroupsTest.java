package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.stats.CostPart;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cost breakdown divides line_transfers by the data the lines hold (CostPart's
 * line_transfers.* parts): which shared line a run's transfers went to.
 */
class LineTransferGroupsTest {
    private static final List<CostPart> GROUPS = List.of(CostPart.LINES_MMAP_LOCK, CostPart.LINES_MM_CPUMASK,
            CostPart.LINES_TLB_GEN, CostPart.LINES_PER_CPU, CostPart.LINES_SPINLOCKS, CostPart.LINES_LOCKED_DATA);

    private static long sumOfGroups(Map<String, Long> cost) {
        return GROUPS.stream().mapToLong(p -> cost.getOrDefault(p.key, 0L)).sum();
    }

    @Test
    void theGroupsAddUpToTheLineTransfers() {
        // 8 threads of tlb-flush2 with the page locks: every group has transfers.
        RunReport r = Runner.run(Scenario.of("tlb-flush2").seed(1).set("threads", "8").set("ops", "4").set("pageLocks", "on"));
        Map<String, Long> cost = r.costNs();
        long total = cost.get(CostPart.LINE_TRANSFERS.key);
        assertTrue(total > 0);
        // Each part is kept in picoseconds and reported in whole ns: the sum of six may fall short by under 6 ns.
        long sum = sumOfGroups(cost);
        assertTrue(total - sum >= 0 && total - sum < GROUPS.size(), "line_transfers " + total + ", its groups " + sum);
        for (CostPart p : GROUPS) {
            assertTrue(cost.get(p.key) > 0, p.key + " in " + cost);
        }
    }

    @Test
    void withoutPageLocksNothingGoesToThemAndTheFlushesLinesCarryTheRest() {
        RunReport r = Runner.run(Scenario.of("tlb-flush2").seed(1).set("threads", "8").set("ops", "4"));
        Map<String, Long> cost = r.costNs();
        assertEquals(0L, cost.get(CostPart.LINES_SPINLOCKS.key));
        assertEquals(0L, cost.get(CostPart.LINES_LOCKED_DATA.key));
        assertTrue(cost.get(CostPart.LINES_TLB_GEN.key) > 0);
        assertTrue(cost.get(CostPart.LINES_MM_CPUMASK.key) > 0);
    }
}
