package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.sim.Timer;
import dev.pvtlb.stats.TimeCategory;
import java.util.List;

/**
 * A critical section under a {@link QueuedSpinLock} taken with IRQs off (spin_lock_irqsave(), as
 * the page allocator's zone lock and the LRU lock are): lock, hold for a fixed time, unlock.
 *
 * <p>A CPU that finds the lock taken queues and spins with IRQs off, so a flush IPI sent to it
 * waits until it has had the lock; on a host its PAUSE loop is what a pause-loop exit catches.
 * With paravirtual spinlocks (kvm_spinlock_init(): pv_wait = kvm_wait, pv_kick = kvm_kick_cpu,
 * arch/x86/kernel/kvm.c; kernel/locking/qspinlock_paravirt.h) a waiter spins at most
 * {@link #SPIN_THRESHOLD} turns, a queued one fewer when the waiter before it has halted
 * (pv_wait_early(), looked at every {@link #PREV_CHECK} turns), then halts (kvm_wait(): HLT with
 * IRQs off, so only the kick wakes it). The unlocker kicks a halted queue head with
 * KVM_HC_KICK_CPU and the host wakes its vCPU (kvm_pv_kick_cpu_op() -> kvm_vcpu_kick()); the head
 * then takes the lock if nobody took it meanwhile, and spins and waits again if somebody did. A
 * locker that comes while the head is halted spins unqueued instead and takes the lock at the next
 * unlock ({@link QueuedSpinLock#acquire}). Without paravirtual spinlocks a hypervisor guest's
 * waiters spin on a test-and-set lock ({@link QueuedSpinLock#testAndSet}, virtSpinLock=tas) or
 * queue fairly (virtSpinLock=off). The spin's turns are counted in the virtual time its
 * vCPU runs: time the host has it descheduled does not count (a pause-loop exit's own work does).
 */
public final class SpinLockedSection extends InternalPath {
    /** qspinlock_paravirt.h's SPIN_THRESHOLD: turns of the spin loop before pv_wait(). */
    static final long SPIN_THRESHOLD = 1L << 15;
    /** PV_PREV_CHECK_MASK + 1: a queued waiter looks at its predecessor's state every this many turns. */
    static final long PREV_CHECK = 0x100;

    private final String name;
    private final QueuedSpinLock<KernelCpu> lock;
    private final long holdNs;
    private final Held held;
    /** The halted queue head this unlock kicks, between the kick's hypercall and the host's answer. */
    private KernelCpu kicked;
    /** Halted in pv_wait(): the step's category is then IDLE, which halts the vCPU. */
    private boolean halting;
    /** The last spin's threshold timer, cancelled when the spin ends before it (the lock taken, or pv_wait()); null before any. */
    private Timer threshold;
    /** When the spin reaches SPIN_THRESHOLD turns if its vCPU keeps running. */
    private long spinUntil;
    /** When the spin started, and its vCPU's descheduled time then ({@link VcpuRunState#descheduledNs}). */
    private long spinStart;
    private long descheduledAtStart;

    /** What a section does once the lock is taken, at {@code now}: returns what its stores cost beyond the hold time, in ns. */
    @FunctionalInterface
    interface Held {
        long run(KernelCpu cpu, long now);
    }

    /** {@code held} runs once the lock is taken (the section's effect); the section lasts {@code holdNs}. */
    public SpinLockedSection(String name, QueuedSpinLock<KernelCpu> lock, long holdNs, Runnable held) {
        this(name, lock, holdNs, (cpu, now) -> {
            held.run();
            return 0;
        });
    }

    /** As above, where the section's effect also costs what {@code held} returns (lines it moves). */
    SpinLockedSection(String name, QueuedSpinLock<KernelCpu> lock, long holdNs, Held held) {
        this.name = name;
        this.lock = lock;
        this.holdNs = holdNs;
        this.held = held;
    }

    @Override
    public long step(KernelCpu cpu) {
        Kernel g = cpu.kernel();
        long now = g.engine().now();
        boolean pv = g.pvSpinlock();
        switch (pc) {
            case 0 -> {
                cpu.interrupts().disable();
                long cost = cpu.lines.write(lock.line(), now); // the lock word's cmpxchg
                if (testAndSet(g) ? lock.testAndSet(cpu) : lock.acquire(cpu, pv)) {
                    pc = 2;
                    return cost;
                }
                pc = 1;
                return spin(cpu);
            }
            case 1 -> {
                if (halting) {
                    // Running again after pv_wait(): kicked (with IRQs off nothing else wakes it).
                    halting = false;
                    lock.resumed(cpu);
                    boolean got = lock.acquire(cpu, pv);
                    // It sets pending (or has the lock): the unqueued spinners see it and look again.
                    wakeAll(lock.unqueuedSpinners());
                    return got ? granted(cpu, now) : spin(cpu);
                }
                if (lock.holder() == cpu) {
                    return granted(cpu, now); // handed over
                }
                if (testAndSet(g)) {
                    // virt_spin_lock(): woken by an unlock, it tries the word; a loser spins on (the
                    // losers' failed cmpxchg traffic on the line is left out).
                    return lock.testAndSet(cpu) ? granted(cpu, now) : BLOCK;
                }
                if (pv && lock.spinsUnqueued(cpu)) {
                    if (lock.acquire(cpu, true)) {
                        return granted(cpu, now); // stolen at the unlock
                    }
                    // Still unqueued: the spin goes on (it never halts); queued now: pv_wait_node()'s count starts.
                    return lock.spinsUnqueued(cpu) ? BLOCK : spin(cpu);
                }
                if (pv) {
                    KernelCpu prev = lock.predecessor(cpu);
                    long left = SPIN_THRESHOLD * cpu.kernel().costs().pauseNs - turnsNs(cpu, now);
                    if (left <= 0 || (prev != null && (lock.isHalted(prev) || waitsEarlyBehind(g, prev)))) {
                        return pvWait(cpu, now);
                    }
                    if (now >= spinUntil) {
                        // Descheduled for part of the spin: the loop counted only the turns it ran.
                        armThreshold(cpu, now + left);
                    }
                }
                return BLOCK; // woken for something else (a pause-loop exit's host work): the spin goes on
            }
            case 2 -> {
                pc = 3;
                long cost = holdNs + held.run(cpu, now);
                for (var l : lock.guardedLines()) {
                    cost += cpu.lines.write(l, now);
                }
                return cost;
            }
            case 3 -> {
                long cost = cpu.lines.write(lock.line(), now);
                KernelCpu next = lock.release(cpu);
                if (next != null && lock.isHalted(next)) {
                    // pv_kick(): KVM_HC_KICK_CPU, a hypercall of the unlocker that wakes the halted
                    // waiter. The host acts once the hypercall has trapped (the next step), as it
                    // posts a hypercall's IPIs after it (HypercallIpi).
                    kicked = next;
                    wakeAll(lock.unqueuedSpinners());
                    g.vmstat().inc(dev.pvtlb.stats.Counter.HYPERCALLS);
                    pc = 4;
                    return cost + g.costs().hypercallNs;
                }
                if (next != null) {
                    next.wake();
                }
                // The unqueued spinners see the lock word change: the first to look takes it.
                wakeAll(lock.unqueuedSpinners());
                return unlocked(cpu, cost);
            }
            default -> {
                // kvm_pv_kick_cpu_op() -> kvm_vcpu_kick(), and what the host does on its way back.
                KernelCpu next = kicked;
                kicked = null;
                next.interrupts().wokenBy(cpu);
                g.vcpuHost().kick(cpu, next);
                g.vcpuHost().kickReturned(cpu, next);
                return unlocked(cpu, 0);
            }
        }
    }

    /** spin_unlock_irqrestore()'s end: IRQs back on, the section returns. */
    private static long unlocked(KernelCpu cpu, long cost) {
        cpu.interrupts().enable();
        cpu.ret();
        return cost;
    }

    /** The lock is this CPU's: its word comes over from the last writer's cache. */
    private long granted(KernelCpu cpu, long now) {
        cpu.lockSpinning(null);
        cpu.kernel().engine().cancel(threshold);
        pc = 2;
        return cpu.lines.write(lock.line(), now);
    }

    /** virtSpinLock=tas: a hypervisor guest without paravirtual spinlocks takes them in virt_spin_lock(). */
    private static boolean testAndSet(Kernel g) {
        return g.vcpuHost() != null && !g.pvSpinlock() && g.knobs().virtSpinLockTas;
    }

    private static void wakeAll(List<KernelCpu> cpus) {
        for (KernelCpu c : cpus) {
            c.wake();
        }
    }

    /**
     * Starts a spin; with paravirtual spinlocks, a timer ends a queued waiter's spin at the
     * threshold (an unqueued spinner has none: pv_hybrid_queued_unfair_trylock() loops until it
     * steals the lock or sees pending set).
     */
    private long spin(KernelCpu cpu) {
        cpu.lockSpinning(lock);
        Kernel g = cpu.kernel();
        if (g.pvSpinlock() && !lock.spinsUnqueued(cpu)) {
            long now = g.engine().now();
            spinStart = now;
            descheduledAtStart = cpu.runState().descheduledNs();
            armThreshold(cpu, now + SPIN_THRESHOLD * cpu.kernel().costs().pauseNs);
        }
        return BLOCK;
    }

    /** Wakes the spinning waiter at {@code at} to count its turns (replacing the timer of an earlier spin). */
    private void armThreshold(KernelCpu cpu, long at) {
        cpu.kernel().engine().cancel(threshold);
        spinUntil = at;
        threshold = cpu.kernel().engine().timer(at, e -> {
            if (pc == 1 && !halting && lock.holder() != cpu) {
                cpu.wake();
            }
        });
    }

    /**
     * The turns of the current spin, as PAUSE time: the time since it started less the time its
     * vCPU was descheduled meanwhile (the kernel's loop counts iterations, and a preempted vCPU
     * runs none).
     */
    private long turnsNs(KernelCpu cpu, long now) {
        return now - spinStart - (cpu.runState().descheduledNs() - descheduledAtStart);
    }

    /**
     * pv_wait_early()'s second test under {@code pvqspinlock.waitEarly=preempted}, vcpu_is_preempted(prev->cpu)
     * (75437bb304b2, reverted by 89340d0935c9): the waiter before this one is on a vCPU the host has descheduled.
     */
    private static boolean waitsEarlyBehind(Kernel g, KernelCpu prev) {
        return g.knobs().pvWaitEarlyPreempted && !prev.vcpuRunning();
    }

    /**
     * The host deschedules {@code cpu} while it spins queued for a lock: with
     * {@code pvqspinlock.waitEarly=preempted} the waiter behind it sees that at its next look at its
     * predecessor, {@link #PREV_CHECK} turns on, and halts if the predecessor is still off its pCPU.
     */
    static void waiterPreempted(KernelCpu cpu) {
        QueuedSpinLock<KernelCpu> lock = cpu.spinLock;
        Kernel g = cpu.kernel();
        if (lock == null || !g.knobs().pvWaitEarlyPreempted || !g.pvSpinlock()) {
            return;
        }
        KernelCpu next = lock.successor(cpu);
        if (next == null || lock.isHalted(next)) {
            return;
        }
        g.engine().at(g.engine().now() + PREV_CHECK * g.costs().pauseNs, e -> {
            if (lock.predecessor(next) == cpu && !cpu.vcpuRunning() && !lock.isHalted(next)) {
                next.wake();
            }
        });
    }

    /** pv_wait(): halt until kicked; the waiter behind notices at its next look and halts too. */
    private long pvWait(KernelCpu cpu, long now) {
        cpu.kernel().vmstat().inc(dev.pvtlb.stats.Counter.PV_WAIT_HALTS);
        halting = true;
        cpu.kernel().engine().cancel(threshold); // the spin ends in a halt
        cpu.lockSpinning(null);
        lock.halting(cpu);
        KernelCpu next = lock.successor(cpu);
        if (next != null) {
            cpu.kernel().engine().at(now + PREV_CHECK * cpu.kernel().costs().pauseNs, e -> {
                if (lock.predecessor(next) == cpu && lock.isHalted(cpu)) {
                    next.wake();
                }
            });
        }
        return BLOCK;
    }

    @Override
    public TimeCategory category() {
        return halting ? TimeCategory.IDLE : TimeCategory.KERNEL;
    }

    @Override
    public String name() {
        return name;
    }
}
