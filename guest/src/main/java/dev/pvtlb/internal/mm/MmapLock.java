package dev.pvtlb.internal.mm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * {@code mm->mmap_lock}, the reader/writer semaphore of kernel/locking/rwsem.c as it behaves since
 * Linux 5.3: who holds it and who waits, in order. The kernel side (blocking, waking, the cost of
 * the count's cache line) is {@code dev.pvtlb.internal.kernel.MmapLocking}; this class is only the
 * lock's state, so it can be tested without a guest.
 *
 * <ul>
 *   <li>A reader gets the lock at once when no writer holds it and nobody waits: the read fast
 *       path (rwsem_read_trylock) fails when RWSEM_FLAG_WAITERS is set, so readers do not overtake
 *       a queued writer.</li>
 *   <li>A writer gets it at once when it is free and nobody waits.</li>
 *   <li>On release, rwsem_mark_wake() hands the lock to the first waiter: a writer alone, or, when
 *       the first waiter is a reader, every reader in the queue up to MAX_READERS_WAKEUP (256),
 *       writers in between left queued (4f23dbc1e657, "locking/rwsem: Wake up almost all readers
 *       in wait queue", 5.3). The woken get the lock before they run (the reader count is raised
 *       for them; a writer is woken with the handoff that makes it the next owner).</li>
 *   <li>downgrade_write() turns the writer into a reader and wakes the readers at the queue's
 *       head, as munmap does before it zaps (dd2283f2605e, 4.20).</li>
 * </ul>
 * A writer may also spin instead of queueing while a running writer holds the lock
 * ({@link #tryWriteUnqueued}); see MmapLocking. Left out: the handoff bit that ends stealing
 * after a waiter has slept long.
 */
public final class MmapLock {
    /** rwsem.c's MAX_READERS_WAKEUP: readers woken at most by one release. */
    static final int MAX_READERS_WAKEUP = 0x100;

    private record Waiter(Object who, boolean write) {}

    private int readers;
    private Object writer;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private final List<Object> granted = new ArrayList<>();

    /** down_read_trylock(): takes the lock for reading if that needs no wait. */
    public boolean tryRead() {
        if (writer != null || !waiters.isEmpty()) {
            return false;
        }
        readers++;
        return true;
    }

    /**
     * rwsem_try_read_lock_unqueued() (5.3 .. 5.11): an optimistically spinning reader takes the lock
     * for reading as soon as no writer holds it, even while others sleep in the queue.
     */
    public boolean tryReadUnqueued() {
        if (writer != null) {
            return false;
        }
        readers++;
        return true;
    }

    /** down_write_trylock(): takes the lock for writing if it is free and nobody waits. */
    public boolean tryWrite(Object who) {
        if (writer != null || readers > 0 || !waiters.isEmpty()) {
            return false;
        }
        writer = who;
        return true;
    }

    /**
     * rwsem_try_write_lock_unqueued(): an optimistic spinner takes a free lock even while others
     * sleep in the queue (it steals it; the handoff that stops this after a long wait is left out).
     */
    public boolean tryWriteUnqueued(Object who) {
        if (writer != null || readers > 0) {
            return false;
        }
        writer = who;
        return true;
    }

    /** The writer holding the lock, or null (read-owned or free). */
    public Object writer() {
        return writer;
    }

    /** Queues {@code who} (rwsem_down_read_slowpath / rwsem_down_write_slowpath) to be granted later. */
    public void enqueue(Object who, boolean write) {
        waiters.addLast(new Waiter(who, write));
    }

    /** up_read(): returns the waiters now holding the lock (valid until the next call). */
    public List<Object> upRead() {
        if (readers <= 0) {
            throw new IllegalStateException("up_read of an mmap_lock no reader holds");
        }
        readers--;
        return wake();
    }

    /** up_write() by {@code who}: returns the waiters now holding the lock (valid until the next call). */
    public List<Object> upWrite(Object who) {
        if (writer != who) {
            throw new IllegalStateException("up_write of an mmap_lock " + who + " does not hold");
        }
        writer = null;
        return wake();
    }

    /** downgrade_write() by {@code who}: it now holds the lock for reading; returns the readers woken with it. */
    public List<Object> downgrade(Object who) {
        if (writer != who) {
            throw new IllegalStateException("downgrade_write of an mmap_lock " + who + " does not hold");
        }
        writer = null;
        readers++;
        return wake();
    }

    /** rwsem_mark_wake(): grant the lock to the queue's head as the rules above say. */
    private List<Object> wake() {
        granted.clear();
        Waiter first = waiters.peekFirst();
        if (first == null || writer != null) {
            return granted;
        }
        if (first.write()) {
            if (readers == 0) {
                waiters.removeFirst();
                writer = first.who();
                granted.add(first.who());
            }
            return granted;
        }
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext() && granted.size() < MAX_READERS_WAKEUP; ) {
            Waiter w = it.next();
            if (!w.write()) {
                it.remove();
                readers++;
                granted.add(w.who());
            }
        }
        return granted;
    }

    public int readers() {
        return readers;
    }

    public boolean writeLocked() {
        return writer != null;
    }

    public int waiting() {
        return waiters.size();
    }

    /** For a new run on the same guest. */
    public void reset() {
        readers = 0;
        writer = null;
        waiters.clear();
        granted.clear();
    }
}
