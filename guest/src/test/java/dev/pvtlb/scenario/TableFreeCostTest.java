package dev.pvtlb.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;

/**
 * Each table-free policy costs what mm/mmu_gather.c does: without MMU_GATHER_RCU_TABLE_FREE the
 * unmapping CPU frees each page table after the flush (pgtable.free.ns, 50); with it, the
 * unmapping CPU takes a batch page (50) and calls call_rcu() (30), and once the grace period has
 * ended its RCU softirq invokes the callback (rcu.callback.ns, 150), which frees each table with
 * its struct page read from memory (50 + mem.ns 80) and then the batch page (50).
 */
class TableFreeCostTest {
    private record Run(long elapsed, long tablesFreed, long gracePeriods) {}

    /** Fault in 4 pages of an otherwise empty address space on one CPU, then unmap them: the walk's tables go too. */
    private static Run unmap(String tableFree) {
        Scripted s = new Scripted(GuestConfig.builder().cpus(1).seed(1).knob("tableFree", tableFree).build());
        long a = s.map(0, 4);
        s.spawn(0, Scripted.populate(a, 4), s.munmap(a, 4));
        s.run();
        return new Run(s.guest.engine().now(), s.count(Counter.TABLES_FREED), s.count(Counter.RCU_GRACE_PERIODS));
    }

    @Test
    void immediateFreesEachTableOnTheUnmappingCpu() {
        Run immediate = unmap("immediate");
        Run rcu = unmap("rcu");
        assertEquals(immediate.tablesFreed(), rcu.tablesFreed());
        assertEquals(0, immediate.gracePeriods());
        assertEquals(1, rcu.gracePeriods());
        long n = rcu.tablesFreed();
        // rcu pays 50 + 30 at the unmap and 150 + n * (50 + 80) + 50 in its softirq; immediate n * 50.
        assertEquals(280 + 80 * n, rcu.elapsed() - immediate.elapsed(), "tables: " + n);
    }
}
