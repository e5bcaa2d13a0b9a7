package dev.pvtlb.internal.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.profile.Profile;
import org.junit.jupiter.api.Test;

/** The parts of ebizzy's record the model prices without simulating them access by access. */
class EbizzyRecordTest {
    private static final Costs C = new Costs(Profile.load("x86-skylake"));

    @Test
    void theCopyMovesEveryLineAtTheFillBuffersRate() {
        // 512 KiB = 8192 lines, 10 LLC misses in flight at 14.7 ns each: 12042.24 ns, rounded up.
        assertEquals(12043, Ebizzy.copyNs(C, 128));
        assertEquals(95, Ebizzy.copyNs(C, 1), "64 lines: 94.08 ns");
    }

    @Test
    void theSearchIsABinarySearchOverTheRecords() {
        assertEquals(16, Ebizzy.searchReads(128), "65536 records of 8 bytes");
        assertEquals(9, Ebizzy.searchReads(1), "512 records");
    }
}
