package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.ContendedLine;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.stats.CostPart;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A queued spinlock (kernel/locking/qspinlock.c) as its waiters see it: one holder, and the CPUs
 * that wait for it in the order they came (the MCS queue behind the lock word; the pending bit
 * and the first waiter's spin on the lock word are folded into the queue). The lock word is one
 * cache line that every locker and the holder write.
 *
 * <p>Natively it is fair: a new locker cannot overtake a queue (the fast path's cmpxchg needs the
 * whole word, tail included, to be zero), and on unlock the queue's head has it. With paravirtual
 * spinlocks (qspinlock_paravirt.h, Linux 4.8+) it is a hybrid: a queue head that spins sets the
 * pending bit, and then the head has the lock on unlock as natively; a head halted in pv_wait()
 * does not, so the released lock is left free, any locker may take it
 * (pv_hybrid_queued_unfair_trylock(), 11752adb68a3), and the unlocker kicks the head, which takes
 * the lock when it runs if it is still free and waits again if not. While the head is halted (its
 * pending bit clear) a new locker does not queue at all: it spins on the lock word to steal it
 * (the unfair mode of pv_hybrid_queued_unfair_trylock(), which qspinlock_paravirt.h makes the
 * slowpath's queued_spin_trylock()), so it takes the lock at the next unlock, ahead of the kicked
 * head, and never halts; once a head spins again (pending set) lockers queue behind it.
 *
 * <p>This is only the lock's state, over the CPUs that take it ({@code C}: KernelCpu);
 * {@link SpinLockedSection} is the kernel side that spins, halts and kicks.
 */
public final class QueuedSpinLock<C extends Cpu> {
    private final String name;
    private final ContendedLine line = new ContendedLine(CostPart.LINES_SPINLOCKS);
    private final ArrayDeque<C> queue = new ArrayDeque<>();
    /** Waiters halted in pv_wait(). */
    private final Set<C> halted = new HashSet<>();
    /** Lockers spinning unqueued to steal the lock (the hybrid lock's unfair mode), in the order they came. */
    private final List<C> unqueued = new ArrayList<>();
    /** A read-only view of {@link #unqueued}, handed out without a copy at every unlock. */
    private final List<C> unqueuedView = Collections.unmodifiableList(unqueued);
    private C holder;
    /** The lines every critical section under the lock writes (the data it protects); none for a bare lock. */
    private final ContendedLine[] guarded;

    public QueuedSpinLock(String name) {
        this(name, 0);
    }

    /**
     * A lock whose every critical section writes {@code guardedLines} lines of the data it
     * protects (list heads, counters): a holder on another CPU than the last one moves them as
     * it moves the lock word. The cost breakdown files their transfers as line_transfers.locked_data,
     * the lock word's as line_transfers.spinlocks.
     */
    public QueuedSpinLock(String name, int guardedLines) {
        this.name = name;
        this.guarded = new ContendedLine[guardedLines];
        for (int i = 0; i < guardedLines; i++) {
            guarded[i] = new ContendedLine(CostPart.LINES_LOCKED_DATA);
        }
    }

    public String name() {
        return name;
    }

    ContendedLine line() {
        return line;
    }

    /** The lines of the protected data that every critical section writes. */
    ContendedLine[] guardedLines() {
        return guarded;
    }

    /**
     * queued_spin_lock() (or, woken, the waiter's next look): true when {@code cpu} now holds it;
     * else it waits, queued (once), or with paravirtual spinlocks ({@code pv}) unqueued while the
     * queue's head is halted: pv_hybrid_queued_unfair_trylock() spins as long as there are queued
     * waiters and the pending bit is clear, and a halted head has cleared it (11752adb68a3,
     * "locking/pvqspinlock: Implement hybrid PV queued/unfair locks", 4.8). A free lock is taken
     * past a halted head by a locker that is not queued. A locker already queued stays queued.
     */
    boolean acquire(C cpu, boolean pv) {
        if (holder == cpu) {
            return true;
        }
        C head = queue.peekFirst();
        boolean headHalted = pv && head != null && halted.contains(head);
        // Past a halted head only a locker on the lock word steals: a queued waiter behind the
        // head spins on its own MCS node (pv_wait_node()) and never looks at the lock.
        if (holder == null && (head == null || head == cpu || (headHalted && !queue.contains(cpu)))) {
            holder = cpu;
            queue.remove(cpu);
            halted.remove(cpu);
            unqueued.remove(cpu);
            return true;
        }
        if (headHalted && !queue.contains(cpu)) {
            if (!unqueued.contains(cpu)) {
                unqueued.add(cpu);
            }
            return false;
        }
        // Pending set (a head spins) or no queue: queued mode, where pv_wait_node() may halt it.
        unqueued.remove(cpu);
        if (!queue.contains(cpu)) {
            queue.addLast(cpu);
        }
        return false;
    }

    /**
     * virt_spin_lock() (arch/x86/include/asm/qspinlock.h), the slowpath of a hypervisor guest
     * without paravirtual spinlocks: a test-and-set loop on the lock word, so nobody queues, a
     * free lock goes to whichever spinner looks first, and a waiter whose vCPU is preempted holds
     * up nobody (the fair queue's "horrible lock 'holder' preemption issues" of its comment). True
     * when {@code cpu} now holds the lock; else it spins among the unqueued.
     */
    boolean testAndSet(C cpu) {
        if (holder == null) {
            holder = cpu;
            unqueued.remove(cpu);
            return true;
        }
        if (holder != cpu && !unqueued.contains(cpu)) {
            unqueued.add(cpu);
        }
        return holder == cpu;
    }

    /** True while {@code cpu} spins unqueued to steal the lock (the hybrid lock's unfair mode: no pv_wait()). */
    boolean spinsUnqueued(C cpu) {
        return unqueued.contains(cpu);
    }

    /**
     * The unqueued spinners, in the order they came: what an unlock, or a head that sets pending
     * again, wakes. A live view: waking them does not change it (they look again when they run).
     */
    List<C> unqueuedSpinners() {
        return unqueuedView;
    }

    /**
     * queued_spin_unlock() by {@code cpu}: returns the waiter to wake, or null. A spinning head
     * now holds the lock; a halted head (with paravirtual spinlocks) is only kicked, the lock free.
     */
    C release(C cpu) {
        if (holder != cpu) {
            throw new IllegalStateException("cpu" + cpu.id() + " releases " + name + ", held by "
                    + (holder == null ? "nobody" : "cpu" + holder.id()));
        }
        holder = null;
        C head = queue.peekFirst();
        if (head == null || halted.contains(head)) {
            return head;
        }
        holder = queue.pollFirst();
        return holder;
    }

    /** pv_wait(): {@code cpu} halts until kicked. */
    void halting(C cpu) {
        halted.add(cpu);
    }

    /** {@code cpu} runs again after pv_wait(): it spins (sets pending, if it is the head) until it has the lock. */
    void resumed(C cpu) {
        halted.remove(cpu);
    }

    boolean isHalted(C cpu) {
        return halted.contains(cpu);
    }

    /** The waiter queued just before {@code cpu}, or null for the head (or a CPU not queued). */
    C predecessor(C cpu) {
        C prev = null;
        for (C c : queue) {
            if (c == cpu) {
                return prev;
            }
            prev = c;
        }
        return null;
    }

    /** The waiter queued just after {@code cpu}, or null. */
    C successor(C cpu) {
        boolean seen = false;
        for (C c : queue) {
            if (seen) {
                return c;
            }
            seen = c == cpu;
        }
        return null;
    }

    public C holder() {
        return holder;
    }

    /** Waiters: the queue and the unqueued spinners. */
    public int waiting() {
        return queue.size() + unqueued.size();
    }

    /** For a new run on the same guest. */
    void reset() {
        for (ContendedLine l : guarded) {
            l.reset();
        }
        holder = null;
        queue.clear();
        halted.clear();
        unqueued.clear();
    }
}
