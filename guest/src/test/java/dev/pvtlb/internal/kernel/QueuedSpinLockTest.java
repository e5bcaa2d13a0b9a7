package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import org.junit.jupiter.api.Test;

/** The lock's state: fair natively, a hybrid with paravirtual spinlocks. */
class QueuedSpinLockTest {
    @Test
    void nativelyTheQueuesHeadHasTheLockOnUnlockAndNoLockerOvertakesIt() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(3).memoryMiB(16).build())) {
            KernelCpu a = g.cpu(0);
            KernelCpu b = g.cpu(1);
            KernelCpu c = g.cpu(2);
            QueuedSpinLock<KernelCpu> lock = new QueuedSpinLock<>("l");
            assertTrue(lock.acquire(a, false));
            assertFalse(lock.acquire(b, false));
            assertSame(b, lock.release(a), "handed to the head");
            assertSame(b, lock.holder());
            assertFalse(lock.acquire(c, false));
            assertSame(c, lock.release(b));
            assertNull(lock.release(c));
            assertThrows(IllegalStateException.class, () -> lock.release(c), "nobody holds it");
        }
    }

    @Test
    void withParavirtualSpinlocksAHaltedHeadLeavesTheReleasedLockFreeForAnyLocker() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(4).memoryMiB(16).build())) {
            KernelCpu a = g.cpu(0);
            KernelCpu b = g.cpu(1);
            KernelCpu c = g.cpu(2);
            KernelCpu d = g.cpu(3);
            QueuedSpinLock<KernelCpu> lock = new QueuedSpinLock<>("l");
            assertTrue(lock.acquire(a, true));
            assertFalse(lock.acquire(b, true));
            assertFalse(lock.acquire(c, true));
            assertSame(b, lock.predecessor(c));
            assertSame(c, lock.successor(b));
            lock.halting(b); // pv_wait(): the head halts, clearing pending
            assertSame(b, lock.release(a), "the halted head is returned to be kicked");
            assertNull(lock.holder(), "but the lock is left free");
            assertFalse(lock.acquire(c, true), "a waiter queued behind the head spins on its own MCS node, not on the lock");
            assertTrue(lock.acquire(d, true), "a new locker takes it past the halted head");
            lock.resumed(b); // the kicked head runs: the lock is taken, so it waits again
            assertFalse(lock.acquire(b, true));
            assertSame(b, lock.release(d), "a spinning head has the lock on unlock, as natively");
            assertSame(b, lock.holder());
            assertSame(c, lock.release(b));
            assertNull(lock.release(c));
        }
    }

    @Test
    void withParavirtualSpinlocksALockerThatComesWhileTheHeadIsHaltedSpinsUnqueuedAndTakesTheLockFirst() {
        try (Kernel g = KernelBoot.boot(GuestConfig.builder().cpus(4).memoryMiB(16).build())) {
            KernelCpu a = g.cpu(0);
            KernelCpu b = g.cpu(1);
            KernelCpu c = g.cpu(2);
            KernelCpu d = g.cpu(3);
            QueuedSpinLock<KernelCpu> lock = new QueuedSpinLock<>("l");
            assertTrue(lock.acquire(a, true));
            assertFalse(lock.acquire(b, true));
            lock.halting(b); // the head halts: pending is clear
            assertFalse(lock.acquire(c, true));
            assertTrue(lock.spinsUnqueued(c), "pv_hybrid_queued_unfair_trylock(): waiters queued, pending clear");
            assertNull(lock.successor(b), "c is not in the queue");
            assertEquals(2, lock.waiting());
            assertSame(b, lock.release(a), "the halted head is kicked, the lock left free");
            assertTrue(lock.acquire(c, true), "the unqueued spinner takes it before the kicked head runs");
            assertFalse(lock.spinsUnqueued(c));
            lock.resumed(b); // the kicked head spins again and sets pending
            assertFalse(lock.acquire(b, true));
            assertFalse(lock.acquire(d, true));
            assertFalse(lock.spinsUnqueued(d), "pending set: a new locker queues");
            assertSame(b, lock.predecessor(d));
            assertSame(b, lock.release(c));
            assertSame(d, lock.release(b));
            assertNull(lock.release(d));
            assertEquals(0, lock.waiting());
        }
    }
}
