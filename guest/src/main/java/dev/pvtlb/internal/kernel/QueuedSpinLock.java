package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.ContendedLine;
import java.util.ArrayDeque;
import java.util.HashSet;
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
 * the lock when it runs if it is still free and waits again if not.
 *
 * <p>This is only the lock's state; {@link SpinLockedSection} is the kernel side that spins,
 * halts and kicks.
 */
public final class QueuedSpinLock {
    private final String name;
    private final ContendedLine line = new ContendedLine();
    private final ArrayDeque<KernelCpu> queue = new ArrayDeque<>();
    /** Waiters halted in pv_wait(). */
    private final Set<KernelCpu> halted = new HashSet<>();
    private KernelCpu holder;

    public QueuedSpinLock(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    ContendedLine line() {
        return line;
    }

    /**
     * queued_spin_lock() (or, woken, the waiter's next look): true when {@code cpu} now holds it;
     * else it is queued (once) and waits. {@code pv}: paravirtual spinlocks, which let a free lock
     * be taken past a halted queue head.
     */
    boolean acquire(KernelCpu cpu, boolean pv) {
        if (holder == cpu) {
            return true;
        }
        KernelCpu head = queue.peekFirst();
        if (holder == null && (head == null || head == cpu || (pv && halted.contains(head)))) {
            holder = cpu;
            queue.remove(cpu);
            halted.remove(cpu);
            return true;
        }
        if (!queue.contains(cpu)) {
            queue.addLast(cpu);
        }
        return false;
    }

    /**
     * queued_spin_unlock() by {@code cpu}: returns the waiter to wake, or null. A spinning head
     * now holds the lock; a halted head (with paravirtual spinlocks) is only kicked, the lock free.
     */
    KernelCpu release(KernelCpu cpu) {
        if (holder != cpu) {
            throw new IllegalStateException("cpu" + cpu.id() + " releases " + name + ", held by "
                    + (holder == null ? "nobody" : "cpu" + holder.id()));
        }
        holder = null;
        KernelCpu head = queue.peekFirst();
        if (head == null || halted.contains(head)) {
            return head;
        }
        holder = queue.pollFirst();
        return holder;
    }

    /** pv_wait(): {@code cpu} halts until kicked. */
    void halting(KernelCpu cpu) {
        halted.add(cpu);
    }

    /** {@code cpu} runs again after pv_wait(): it spins (sets pending, if it is the head) until it has the lock. */
    void resumed(KernelCpu cpu) {
        halted.remove(cpu);
    }

    boolean isHalted(KernelCpu cpu) {
        return halted.contains(cpu);
    }

    /** The waiter queued just before {@code cpu}, or null for the head (or a CPU not queued). */
    KernelCpu predecessor(KernelCpu cpu) {
        KernelCpu prev = null;
        for (KernelCpu c : queue) {
            if (c == cpu) {
                return prev;
            }
            prev = c;
        }
        return null;
    }

    /** The waiter queued just after {@code cpu}, or null. */
    KernelCpu successor(KernelCpu cpu) {
        boolean seen = false;
        for (KernelCpu c : queue) {
            if (seen) {
                return c;
            }
            seen = c == cpu;
        }
        return null;
    }

    public KernelCpu holder() {
        return holder;
    }

    public int waiting() {
        return queue.size();
    }

    /** For a new run on the same guest. */
    void reset() {
        holder = null;
        queue.clear();
        halted.clear();
    }
}
