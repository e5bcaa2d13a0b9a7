package dev.pvtlb.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.internal.mmu.Pte;
import org.junit.jupiter.api.Test;

/** Both walks once, outside JMH: they translate to the mapped frame, reading 1 and 4 levels. */
class PageWalkBenchTest {
    @Test
    void bothWalksFindTheMappedPfnAndReadTheExpectedLevels() {
        PageWalkBench b = new PageWalkBench();
        b.setUp();
        try {
            long hit = b.pscHitWalk();
            assertEquals(b.dataPfn, Pte.pfnOf(hit));
            assertEquals(1, b.cached.levelsRead(), "the PDE cache skips PGD, PUD and PMD");
            long full = b.fullWalk();
            assertEquals(b.dataPfn, Pte.pfnOf(full));
            assertEquals(4, b.uncached.levelsRead());
            assertEquals(Pte.ACCESSED | Pte.DIRTY, full & (Pte.ACCESSED | Pte.DIRTY));
            assertEquals(hit, full, "the same leaf either way");
        } finally {
            b.tearDown();
        }
    }
}
