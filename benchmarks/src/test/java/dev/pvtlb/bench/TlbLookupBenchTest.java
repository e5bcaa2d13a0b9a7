package dev.pvtlb.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.internal.mmu.Pte;
import org.junit.jupiter.api.Test;

/** The batch once, outside JMH: all 1024 pages are present and every lookup hits its own entry. */
class TlbLookupBenchTest {
    @Test
    void everyLookupOfTheBatchHits() {
        TlbLookupBench b = new TlbLookupBench();
        b.setUp();
        assertEquals(TlbLookupBench.BATCH, b.tlb.size(), "no fill evicted another");
        assertEquals(TlbLookupBench.BATCH, b.batchHit());
        long vpn = b.vpns[0];
        assertEquals(0x100 + (vpn - TlbLookupBench.BASE_VPN), Pte.pfnOf(b.tlb.pte(b.tlb.lookup(1, vpn))));
        assertEquals(-1, b.tlb.lookup(2, vpn), "another PCID misses");
    }
}
