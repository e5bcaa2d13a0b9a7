package dev.pvtlb.internal.workload;

import dev.pvtlb.model.NoProgressException;
import dev.pvtlb.internal.kernel.PageFault;
import dev.pvtlb.internal.kernel.MmapLockHold;
import dev.pvtlb.internal.kernel.MmapLocking;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.internal.kernel.Task;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.SmtSharing;
import dev.pvtlb.internal.mm.Vma;
import dev.pvtlb.internal.sim.SplitMix;

/**
 * A batch of user-mode memory accesses over {@code pages} pages from {@code base}: random or
 * sequential pages, a fraction of them stores. The batch runs as one step without allocating
 * (DESIGN.md rule 6) and yields at the engine's horizon, so an IPI due on this CPU is taken
 * between two accesses; a faulting access is retried after the fault.
 */
public final class Touch implements Op {
    /**
     * The watchdog's bound on faults of one access in a row. handle_mm_fault() installs the PTE
     * the access needs, so the retry faults again only when another CPU zapped or write-protected
     * that very PTE in between; a thousand such races in a row do not happen in a model that
     * makes progress. A fault that cannot repair what the walk sees (a stale paging-structure
     * cache entry left by a missed flush) repeats without end, each time costing fault.ns of
     * virtual time, so the engine's per-instant bound does not see it: past this many the run
     * stops with a {@link NoProgressException} naming the CPU, its kernel paths and the address.
     */
    static final int MAX_FAULTS_PER_ACCESS = 1000;

    private final long base;
    private final int pages;
    private final double writeFraction;
    private final boolean sequential;
    private final LatencyRecorder recorder;
    /** When not null: the addresses read, in order, once each (the batch's accesses). */
    private final long[] addresses;
    private int cursor;
    private long remaining;
    private long nextPage;
    private long pendingVa = -1;
    private boolean pendingWrite;
    private int faultsInARow;
    /** The fault this batch takes, one at a time (it has returned before the batch runs on). */
    private PageFault fault;
    /** The fast level's last inline fault, ns of each part exact runs as its own step: lock (in the batch's step), fault, unlock. */
    private long inlineLockNs;
    private long inlineFaultNs;
    private long inlineUnlockNs;

    public Touch(long base, int pages, long accesses, double writeFraction, boolean sequential, LatencyRecorder recorder) {
        this.base = base;
        this.pages = pages;
        this.remaining = accesses;
        this.writeFraction = writeFraction;
        this.sequential = sequential;
        this.recorder = recorder;
        this.addresses = null;
    }

    /** Reads of {@code addresses} in order, once each (a program's loop over a fixed list of addresses). */
    public Touch(long[] addresses, LatencyRecorder recorder) {
        this.base = 0;
        this.pages = 0;
        this.remaining = addresses.length;
        this.writeFraction = 0;
        this.sequential = true;
        this.recorder = recorder;
        this.addresses = addresses;
    }

    private PageFault fault(dev.pvtlb.internal.mm.Mm mm, long va, boolean write, Task holder) {
        return fault == null ? (fault = new PageFault(mm, va, write, holder)) : fault.of(mm, va, write, holder);
    }

    /**
     * The fast level: the fault of {@code va} taken within the batch when nothing else can be
     * waiting on it. With mmap_lock taken by faults, only when the lock is neither write-held nor
     * waited for, so the read hold taken and dropped here delays no writer; then only when
     * handle_mm_fault() can finish at once ({@link PageFault#canInline}). True when taken, its
     * parts' costs in {@link #inlineLockNs}, {@link #inlineFaultNs} and {@link #inlineUnlockNs}
     * (fields: the batch allocates nothing); false with nothing done, for the fault to be taken
     * as a path of its own. First of all, the fault must end before the next event anywhere
     * ({@link #endsBeforeNextEvent}), the batch's time so far ({@code ps} since {@code start}) included.
     */
    private boolean inlineFault(KernelCpu cpu, Task task, long va, boolean write, long start, long ps, long share) {
        Vma vma = task.mm().findVma(va); // nothing below changes the VMAs before the fault runs
        if (!endsBeforeNextEvent(cpu, vma, start, ps, share)) {
            return false;
        }
        boolean takesLock = cpu.kernel().knobs().faultsTakeMmapLock;
        if (takesLock) {
            dev.pvtlb.internal.mm.MmapLock lock = task.mm().mmapLock();
            if (task.mmapLockHeld() != MmapLockHold.NONE || lock.writeLocked() || lock.waiting() > 0) {
                return false;
            }
        }
        PageFault f = fault(task.mm(), va, write, null);
        if (!f.canInline(cpu, vma)) {
            return false;
        }
        inlineLockNs = takesLock ? MmapLocking.lock(cpu, task, MmapLockHold.READ) : 0;
        inlineFaultNs = f.inline(cpu);
        inlineUnlockNs = takesLock ? MmapLocking.unlock(cpu, task) : 0;
        return true;
    }

    /** A batch's budget in unscaled ps when it starts at {@code start}: up to the engine's horizon. */
    private static long limitPs(long horizon, long start, long share) {
        return unscaled(horizon == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(1, horizon - start) * 1000, share);
    }

    /** {@code ps} of the step's time as unscaled batch time: a sibling executing stretches each ps (SmtSharing). */
    private static long unscaled(long ps, long share) {
        if (share == 1000 || ps == Long.MAX_VALUE || ps == 0) {
            return ps;
        }
        return Math.max(1, ps / share * 1000 + ps % share * 1000 / share);
    }

    /**
     * Whether a fault taken after {@code ps} of a batch that began at {@code start} would end (its
     * cost ({@link PageFault#costNs}) and two cross-socket transfers for the mmap_lock) before the
     * next event anywhere.
     */
    private static boolean endsBeforeNextEvent(KernelCpu cpu, Vma vma, long start, long ps, long share) {
        long faultNs = PageFault.costNs(cpu.kernel().costs(), vma);
        long boundNs = faultNs + 2 * cpu.kernel().costs().lineCrossSocketNs;
        return start + SmtSharing.scale((ps + 999) / 1000 + boundNs, share) <= cpu.kernel().engine().nextEventTime();
    }

    @Override
    public long run(KernelCpu cpu, Task task) {
        long now = cpu.kernel().engine().now();
        long horizon = cpu.kernel().engine().horizon();
        // A sibling executing on the core stretches the batch (SmtSharing): it stops at the horizon
        // in the time it takes, and its accesses are measured as taking that long.
        long share = cpu.stepTime().sharePermille();
        long limitPs = limitPs(horizon, now, share);
        // Fast: ns of the batches and faults this step has closed, each as the exact level's step would cost it.
        long doneNs = 0;
        long kernelNs = 0;
        SplitMix r = task.random();
        // A read lock granted while the task slept on it (the pending fault's), read once: the
        // batch below is the hot loop of every workload.
        boolean lockGranted = task.mmapLockHeld() != MmapLockHold.NONE;
        long ps = 0;
        long done = 0;
        while (remaining > 0) {
            long va;
            boolean write;
            if (pendingVa >= 0) {
                va = pendingVa;
                write = pendingWrite;
            } else if (addresses != null) {
                va = addresses[cursor++];
                write = false;
            } else {
                long page = sequential ? nextPage++ % pages : r.nextInt(pages);
                va = base + (page << 12);
                write = writeFraction >= 1.0 || (writeFraction > 0 && r.nextDouble() < writeFraction);
            }
            long c = cpu.localTlb().userAccess(va, write);
            if (c < 0) {
                faultsInARow = pendingVa >= 0 ? faultsInARow + 1 : 1;
                if (faultsInARow >= MAX_FAULTS_PER_ACCESS) {
                    throw new NoProgressException(String.format("%s: the %s of 0x%x faulted %d times in a row, and "
                            + "handle_mm_fault never made it succeed (at virtual time %d ns): the model makes no progress",
                            cpu.describe(), write ? "write" : "read", va, faultsInARow, cpu.kernel().engine().now()));
                }
                pendingVa = va;
                pendingWrite = write;
                // The fast level takes the fault here, in this step, when it ends before the next
                // event (fault.ns and two cross-socket transfers for the lock): then nothing comes
                // between the exact level's steps for it either, neither an IPI, nor a host's
                // deschedule of a vCPU in the kernel holding the lock, nor a sibling's change of
                // state. Its time is kept as exact keeps it, step by step: each part rounded and
                // scaled on its own, the accesses before it one batch and those after another.
                // (Measured without that bound: ebizzy on 2 KVM VMs went from 37050 to 13471
                // records/s; with the quantum's 500 ns past the next event, a 4-thread
                // munmap-storm's 12 munmaps flushed 21 CPUs where exact flushes 14.)
                if (cpu.kernel().fast() && inlineFault(cpu, task, va, write, now + doneNs, ps, share)) {
                    long batchPs = ps + inlineLockNs * 1000;
                    if (recorder != null && done > 0) {
                        recorder.addBatch(SmtSharing.scale(batchPs, share), done);
                    }
                    long kernel = SmtSharing.scale(inlineFaultNs, share) + SmtSharing.scale(inlineUnlockNs, share);
                    doneNs += SmtSharing.scale((batchPs + 999) / 1000, share) + kernel;
                    kernelNs += kernel;
                    // The next batch, as the exact level's next step would run it, from its own start.
                    ps = 0;
                    done = 0;
                    limitPs = limitPs(horizon, now + doneNs, share);
                    continue;
                }
                if (cpu.kernel().knobs().faultsTakeMmapLock) {
                    // do_user_addr_fault(): mmap_read_lock (lock_mm_and_find_vma); asleep behind a
                    // writer, the access is retried when the lock is granted. With per-VMA locks
                    // (mmapLock=vma) lock_vma_under_rcu() takes the VMA's own lock instead: no
                    // workload here faults on a VMA another CPU is changing, so it never falls back.
                    if (task.mmapLockHeld() == MmapLockHold.NONE) {
                        ps += MmapLocking.lock(cpu, task, MmapLockHold.READ) * 1000;
                        if (task.mmapLockHeld() == MmapLockHold.NONE) {
                            break;
                        }
                    }
                    cpu.call(fault(task.mm(), va, write, task));
                } else {
                    cpu.call(fault(task.mm(), va, write, null));
                }
                break;
            }
            pendingVa = -1;
            if (lockGranted) {
                // Granted the read lock while asleep, but another CPU's fault mapped the page meanwhile.
                lockGranted = false;
                ps += MmapLocking.unlock(cpu, task) * 1000;
            }
            ps += c;
            done++;
            remaining--;
            if (ps >= limitPs) {
                break;
            }
        }
        if (remaining == 0) {
            task.opDone();
        }
        long ns = (ps + 999) / 1000;
        if (recorder != null && done > 0) {
            recorder.addBatch(SmtSharing.scale(ps, share), done);
        }
        if (doneNs > 0) {
            cpu.stepTime().costScaled(kernelNs);
            return doneNs + SmtSharing.scale(ns, share);
        }
        return ns;
    }
}
