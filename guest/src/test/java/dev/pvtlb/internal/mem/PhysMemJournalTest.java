package dev.pvtlb.internal.mem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A branch's writes to the memory it shares with its run are undone, newest first. */
class PhysMemJournalTest {
    @Test
    void rollbackPutsBackEveryWordWrittenOrFilledSinceTheJournalBegan() {
        try (PhysMem m = new PhysMem(PhysMem.MIN_BYTES)) {
            m.writeWord(3, 7, 0x1111);
            m.fill(4, 0x0202020202020202L);
            m.journal();
            m.writeWord(3, 7, 0x2222);
            m.writeWord(3, 7, 0x3333); // twice: the older value must win
            m.fill(4, 0xdeadbeefL);
            m.writeWord(5, 0, 42);
            m.rollback();
            assertEquals(0x1111, m.readWord(3, 7));
            assertTrue(m.isFilledWith(4, 0x0202020202020202L));
            assertEquals(0, m.readWord(5, 0));
            m.writeWord(5, 0, 9); // no journal now: kept
            assertEquals(9, m.readWord(5, 0));
            assertThrows(IllegalStateException.class, m::rollback);
        }
    }
}
