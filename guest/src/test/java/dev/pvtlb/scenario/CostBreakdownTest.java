package dev.pvtlb.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.stats.CostPart;
import org.junit.jupiter.api.Test;

/**
 * The cost breakdown of one shootdown at the profile's prices (IRQ entry and exit 404 ns, a csd
 * run 20 ns, ICR write 50 ns, INVLPG 100 ns, a same-socket line transfer 20 ns, a hit 5 ns): CPU 0
 * unmaps 10 pages while CPUs 1..3, on other cores of the same socket, run the mm.
 */
class CostBreakdownTest {
    private static long part(Scripted s, CostPart p) {
        return s.guest.ledger().ns(p);
    }

    @Test
    void oneShootdownOfTenPagesToThreeTargetsCostsWhatEachPartSays() {
        Scripted s = new Scripted(GuestConfig.builder().cpus(4).seed(3).knob("lazy", "off").build());
        long a = s.map(0, 64);
        for (int c = 1; c < 4; c++) {
            long mine = s.map(c, 8);
            s.spawn(c, Scripted.populate(mine, 8), Scripted.touch(mine, 8, 150_000));
        }
        s.spawn(0, Scripted.populate(a, 64), s.munmap(a + 8 * Scripted.PAGE, 10));
        s.run();
        // Per target: the csd's line from the target (its last csd_unlock), a first touch of its
        // call_single_queue (5), one ICR write (50).
        assertEquals(3 * (20 + 5 + 50), part(s, CostPart.FLUSH_SEND));
        // Per target: entry and exit, and llist_del_all taking its queue line back from CPU 0.
        assertEquals(3 * (404 + 20), part(s, CostPart.TARGET_IRQ));
        // Per csd: read it from CPU 0, run it, csd_unlock it back.
        assertEquals(3 * (20 + 20 + 20), part(s, CostPart.TARGET_CSD));
        // CPU 0's own 10 INVLPGs, after the IPIs are out, and its tlb_gen read (a hit: it wrote it).
        assertEquals(10 * 100 + 5, part(s, CostPart.FLUSH_LOCAL));
        // Per target: 10 INVLPGs, flush_tlb_info and tlb_gen each read from another cache.
        assertEquals(3 * (10 * 100 + 20 + 20), part(s, CostPart.TARGET_FLUSH));
        // The targets run user accesses, which stop at the IPI's arrival: each takes it within an
        // access (3 ns in all), where a target with IRQs off would hold it.
        assertEquals(3, part(s, CostPart.IPI_DELIVERY));
    }
}
