package dev.pvtlb.internal.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.internal.mmu.PageTables;
import org.junit.jupiter.api.Test;

class MmTest {
    private static final long P = 4096;

    @Test
    void eachPteTableHasItsOwnLock() {
        // Split PTE locks: one per PTE table, that is per 2 MiB of address space.
        Mm mm = new Mm(1, 2, 1, 4, false);
        long a = 0x7f00_0000_0000L;
        long nextTable = a + (2L << 20);
        assertTrue(mm.ptlTryLock(0, a));
        assertFalse(mm.ptlTryLock(1, a + 511 * P), "the same table: held by cpu0");
        assertTrue(mm.ptlTryLock(1, nextTable), "the next table's lock is free");
        assertTrue(mm.ptlHeldByOther(2, a + P, a + 2 * P));
        assertTrue(mm.ptlHeldByOther(0, nextTable - P, nextTable + P), "the range reaches cpu1's table");
        assertFalse(mm.ptlHeldByOther(0, a, a + P), "cpu0's own lock");
        mm.ptlUnlock(a);
        assertFalse(mm.ptlHeldByOther(2, a, nextTable));
        assertTrue(mm.ptlTryLock(2, a));
        assertTrue(Mm.samePtl(a, a + 511 * P));
        assertFalse(Mm.samePtl(a, nextTable));
    }

    @Test
    void removingTheMiddleOfAVmaSplitsIt() {
        Mm mm = new Mm(1, 2, 1, 4, false);
        long a = mm.getUnmappedArea(10 * P);
        mm.insertVma(a, a + 10 * P, true, false);
        assertTrue(mm.removeRange(a + 3 * P, a + 5 * P).any());
        assertEquals(2, mm.vmas().size());
        assertNull(mm.findVma(a + 4 * P));
        assertEquals(a + 3 * P, mm.findVma(a).end());
        assertEquals(a + 5 * P, mm.findVma(a + 9 * P).start());
        assertEquals(8 * P, mm.mappedBytes(a, a + 10 * P));
        assertEquals(a + 3 * P, mm.getUnmappedArea(2 * P), "the hole is reused");
        assertEquals(a + 10 * P, mm.getUnmappedArea(3 * P), "a larger request goes past it");
    }

    @Test
    void aSharedAnonymousMappingsFileGoesWithItsLastVma() {
        // munmap of the middle splits it: the halves share the shmem file (two references once
        // the middle is gone), so only the munmap that removes the last half releases it.
        Mm mm = new Mm(1, 2, 1, 4, false);
        long a = mm.getUnmappedArea(10 * P);
        mm.insertSharedAnonymousVma(a, a + 10 * P, true);
        assertEquals(new Mm.Removal(true, 0), mm.removeRange(a + 3 * P, a + 5 * P));
        assertEquals(new Mm.Removal(true, 0), mm.removeRange(a, a + 3 * P));
        assertEquals(new Mm.Removal(false, 0), mm.removeRange(a, a + 5 * P), "nothing left there");
        assertEquals(new Mm.Removal(true, 1), mm.removeRange(a + 5 * P, a + 10 * P));
        long b = mm.getUnmappedArea(4 * P);
        mm.insertSharedAnonymousVma(b, b + 2 * P, true);
        mm.insertSharedAnonymousVma(b + 2 * P, b + 4 * P, true);
        mm.insertVma(b + 4 * P, b + 6 * P, true, false);
        assertEquals(new Mm.Removal(true, 2), mm.removeRange(b, b + 6 * P), "two files of their own, and a private mapping");
    }

    @Test
    void mappingOutsideTheUserAddressSpaceIsRefused() {
        Mm mm = new Mm(1, 2, 1, 4, false);
        ModelException e = assertThrows(ModelException.class,
                () -> mm.insertVma(PageTables.USER_VA_END, PageTables.USER_VA_END + P, true, false));
        assertTrue(e.getMessage().contains("user address space"), e.getMessage());
        assertThrows(ModelException.class, () -> mm.insertVma(0x1001, 0x3000, true, false));
        mm.insertVma(0x10000, 0x20000, true, false);
        assertThrows(ModelException.class, () -> mm.insertVma(0x18000, 0x28000, true, false));
    }
}
