package dev.pvtlb.internal.mm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** mm->mmap_lock's rules (rwsem.c, 5.3+): who gets it at once, who waits, whom a release wakes. */
class MmapLockTest {
    @Test
    void readersShareAndAWriterWaitsForTheLastOfThem() {
        MmapLock l = new MmapLock();
        assertTrue(l.tryRead());
        assertTrue(l.tryRead());
        assertFalse(l.tryWrite("w"));
        l.enqueue("w", true);
        assertEquals(List.of(), l.upRead(), "one reader is still in");
        assertEquals(List.of("w"), l.upRead(), "the last reader's up_read hands the lock to the writer");
        assertTrue(l.writeLocked());
        assertEquals(0, l.readers());
    }

    @Test
    void aReaderDoesNotOvertakeAQueuedWriter() {
        MmapLock l = new MmapLock();
        assertTrue(l.tryRead());
        l.enqueue("w", true);
        assertFalse(l.tryRead(), "RWSEM_FLAG_WAITERS makes the read fast path fail");
        l.enqueue("r", false);
        assertEquals(List.of("w"), l.upRead());
        assertEquals(List.of("r"), l.upWrite("w"));
        assertEquals(1, l.readers());
    }

    @Test
    void aWritersReleaseWakesEveryQueuedReaderAndLeavesTheWritersBetween() {
        MmapLock l = new MmapLock();
        assertTrue(l.tryWrite("a"));
        l.enqueue("r1", false);
        l.enqueue("w", true);
        l.enqueue("r2", false);
        assertEquals(List.of("r1", "r2"), l.upWrite("a"), "4f23dbc1e657: almost all readers in the queue");
        assertEquals(2, l.readers());
        assertEquals(1, l.waiting());
        l.upRead();
        assertEquals(List.of("w"), l.upRead());
    }

    @Test
    void aReleaseToAQueueHeadedByAWriterWakesOnlyIt() {
        MmapLock l = new MmapLock();
        assertTrue(l.tryWrite("a"));
        l.enqueue("w", true);
        l.enqueue("r", false);
        assertEquals(List.of("w"), l.upWrite("a"));
        assertEquals(List.of("r"), l.upWrite("w"));
    }

    @Test
    void downgradeMakesTheWriterAReaderAndLetsQueuedReadersIn() {
        MmapLock l = new MmapLock();
        assertTrue(l.tryWrite("munmap"));
        l.enqueue("fault", false);
        assertEquals(List.of("fault"), l.downgrade("munmap"));
        assertEquals(2, l.readers());
        assertFalse(l.writeLocked());
        MmapLock m = new MmapLock();
        assertTrue(m.tryWrite("munmap"));
        m.enqueue("mmap", true);
        assertEquals(List.of(), m.downgrade("munmap"), "a writer at the head keeps waiting for the new reader");
    }

    @Test
    void aSpinningWriterStealsAFreeLockFromTheSleepers() {
        MmapLock l = new MmapLock();
        assertTrue(l.tryWrite("owner"));
        assertEquals("owner", l.writer());
        l.enqueue("sleeper", true);
        assertFalse(l.tryWriteUnqueued("spinner"), "held");
        assertEquals(List.of("sleeper"), l.upWrite("owner"), "the release hands it to the sleeper");
        assertFalse(l.tryWriteUnqueued("spinner"));
        MmapLock m = new MmapLock();
        assertTrue(m.tryRead());
        m.enqueue("sleeper", true);
        assertFalse(m.tryWrite("spinner"), "a queued writer keeps newcomers out");
        m.upRead();
        assertEquals("sleeper", m.writer());
        MmapLock free = new MmapLock();
        free.enqueue("sleeper", true);
        assertTrue(free.tryWriteUnqueued("spinner"), "rwsem_try_write_lock_unqueued ignores the queue");
        assertEquals("spinner", free.writer());
    }

    @Test
    void releasingWhatIsNotHeldIsAModelBug() {
        MmapLock l = new MmapLock();
        assertThrows(IllegalStateException.class, l::upRead);
        assertThrows(IllegalStateException.class, () -> l.upWrite("x"));
        assertTrue(l.tryWrite("a"));
        assertThrows(IllegalStateException.class, () -> l.downgrade("b"));
    }
}
