package dev.pvtlb.internal.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.profile.Profile;
import org.junit.jupiter.api.Test;

/** The coherence of one shared line at the profile's prices: local 5 ns, same socket 20 ns, cross socket 120 ns. */
class ContendedLineTest {
    private static final Costs C = new Costs(Profile.load("x86-skylake"));

    @Test
    void aLineWrittenByEightCpusInTurnCostsOneTransferEachAndACrossSocketOneMore() {
        ContendedLine l = new ContendedLine(dev.pvtlb.stats.CostPart.LINES_PER_CPU);
        assertEquals(5, l.write(0, 0, 0, 0, C)); // first touch
        assertEquals(5, l.write(0, 0, 0, 10, C)); // still Modified here
        long total = 0;
        for (int cpu = 1; cpu < 8; cpu++) {
            total += l.write(cpu, 0, cpu, cpu * 1000L, C); // far apart in time: nothing in flight
        }
        assertEquals(7 * 20, total);
        assertEquals(120, l.write(8, 1, 8, 9000, C));
    }

    @Test
    void writersAtTheSameInstantQueueBehindEachOther() {
        ContendedLine l = new ContendedLine(dev.pvtlb.stats.CostPart.LINES_PER_CPU);
        l.write(0, 0, 0, 0, C);
        long[] costs = new long[7];
        for (int cpu = 1; cpu < 8; cpu++) {
            costs[cpu - 1] = l.write(cpu, 0, cpu, 100, C);
        }
        // The k-th waits for the k-1 transfers before it: 20, 40, ..., 140 ns.
        assertEquals(java.util.List.of(20L, 40L, 60L, 80L, 100L, 120L, 140L), java.util.Arrays.stream(costs).boxed().toList());
        // Once they are done the line is Modified at CPU 7: its owner hits, a latecomer pays one transfer.
        assertEquals(5, l.write(7, 0, 7, 1000, C));
        assertEquals(20, l.write(1, 0, 1, 1000, C));
    }

    @Test
    void readersShareTheLineAndTheNextWriteInvalidatesEveryCopy() {
        ContendedLine l = new ContendedLine(dev.pvtlb.stats.CostPart.LINES_PER_CPU);
        l.write(0, 0, 0, 0, C);
        assertEquals(20, l.read(1, 0, 1, 1000, C)); // from CPU 0's cache
        assertEquals(5, l.read(1, 0, 1, 2000, C)); // a Shared copy of its own
        assertEquals(5, l.read(0, 0, 0, 2000, C)); // the old writer kept a Shared copy
        assertEquals(120, l.read(9, 1, 9, 3000, C)); // only the other socket holds it
        // CPU 0 writes again: copies on both sockets must go.
        assertEquals(120, l.write(0, 0, 0, 4000, C));
        assertEquals(20, l.read(2, 0, 2, 5000, C));
        // Only same-socket copies (CPUs 0 and 2): invalidating them is a same-socket transfer.
        assertEquals(20, l.write(3, 0, 3, 6000, C));
    }

    @Test
    void smtSiblingsShareTheCoresCachesSoTheirTransfersAreHits() {
        ContendedLine l = new ContendedLine(dev.pvtlb.stats.CostPart.LINES_PER_CPU);
        l.write(0, 0, 0, 0, C);
        assertEquals(5, l.write(4, 0, 0, 100, C)); // CPU 4 is thread 1 of core 0
        assertEquals(5, l.read(0, 0, 0, 200, C));
        assertEquals(20, l.write(1, 0, 1, 300, C));
    }

    @Test
    void aResetLineIsAsNew() {
        ContendedLine l = new ContendedLine(dev.pvtlb.stats.CostPart.LINES_PER_CPU);
        l.write(0, 0, 0, 0, C);
        l.write(1, 0, 1, 0, C);
        l.reset();
        assertEquals(5, l.write(2, 0, 2, 0, C));
        assertEquals(20, l.write(3, 0, 3, 0, C)); // nothing left in flight from before the reset
    }
}
