package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.workload.Syscall;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.stats.TlbFlushReason;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Queued spinlocks on bare metal (x86-skylake: a line moves between cores of a socket in 20 ns). */
class SpinLockedSectionTest {
    private static final long HOLD = 10_000;

    /** A system call that takes {@code lock} for {@code hold} ns and records when each CPU had it. */
    private static Op section(QueuedSpinLock<KernelCpu> lock, long hold, List<long[]> held) {
        return new Syscall(t -> new SpinLockedSection("test_lock", lock, hold,
                () -> held.add(new long[] {t.cpu().id(), t.cpu().kernel().engine().now()})), null);
    }

    @Test
    void waitersHaveTheLockInTheOrderTheyCameEachAfterTheHoldBeforeIt() {
        Scripted s = new Scripted(GuestConfig.builder().cpus(3).seed(1).build());
        QueuedSpinLock<KernelCpu> lock = new QueuedSpinLock<>("test_lock");
        List<long[]> held = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            s.spawn(c, section(lock, HOLD, held));
        }
        s.run();
        assertEquals(3, held.size());
        List<Long> order = held.stream().map(h -> h[0]).toList();
        assertEquals(List.of(0L, 1L, 2L), order, "FIFO: the queue's head has it on unlock");
        // The next holder starts when the hold before it ends plus its write of the lock word, a
        // line transfer (20 ns) from the unlocker's cache. At the first unlock the word was last
        // written by cpu2's failed try, so the unlock's own write is a transfer too and the new
        // holder's waits behind it (20 + 20); at the second the unlocker still has the word.
        assertEquals(HOLD + 40, held.get(1)[1] - held.get(0)[1]);
        assertEquals(HOLD + 20, held.get(2)[1] - held.get(1)[1]);
        assertEquals(null, lock.holder());
        assertEquals(0, lock.waiting());
    }

    @Test
    void theDataALockGuardsMovesToEachNewHolderWithTheLockWord() {
        // As the test above, with two lines of protected data (an LRU's list head and counters) that every
        // section writes: cpu0 touches them first (2 x line.local.ns, 5 ns), cpu1 and cpu2 each fetch
        // them from the holder before (2 x 20 ns) on top of the lock word's hand-over.
        Scripted s = new Scripted(GuestConfig.builder().cpus(3).seed(1).build());
        QueuedSpinLock<KernelCpu> lock = new QueuedSpinLock<>("test_lock", 2);
        List<long[]> held = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            s.spawn(c, section(lock, HOLD, held));
        }
        s.run();
        assertEquals(List.of(0L, 1L, 2L), held.stream().map(h -> h[0]).toList());
        assertEquals(HOLD + 10 + 40, held.get(1)[1] - held.get(0)[1]);
        assertEquals(HOLD + 40 + 20, held.get(2)[1] - held.get(1)[1]);
    }

    @Test
    void aFlushIpiToACpuSpinningWithIrqsOffWaitsUntilItHasHadTheLock() {
        Scripted s = new Scripted(GuestConfig.builder().cpus(3).seed(1).build());
        QueuedSpinLock<KernelCpu> lock = new QueuedSpinLock<>("test_lock");
        List<long[]> held = new ArrayList<>();
        long b = s.map(1, 1);
        // cpu0 holds the lock 50 us; cpu1 touches the page, then waits for the lock; cpu2 unmaps
        // the page meanwhile, which must shoot down cpu1's entry.
        s.spawn(0, section(lock, 50_000, held));
        s.spawn(1, Scripted.populate(b, 1), section(lock, HOLD, held));
        s.spawn(2, new dev.pvtlb.internal.workload.Spin(5_000, 5_000), s.munmap(b, 1));
        s.run();
        assertEquals(2, held.size());
        long cpu1Releases = held.get(1)[1] + HOLD;
        var shootdowns = s.flushes(1, TlbFlushReason.TLB_REMOTE_SHOOTDOWN);
        assertEquals(1, shootdowns.size());
        assertTrue(shootdowns.get(0).time() >= cpu1Releases,
                "cpu1 takes the IPI only once its section ends and IRQs are on: " + shootdowns.get(0).time() + " < " + cpu1Releases);
        assertTrue(held.get(1)[1] >= 50_000, "cpu1 had the lock after cpu0's 50 us");
    }
}
