package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.cache.CacheHierarchy;
import dev.pvtlb.internal.cache.SetAssociativeCache;
import dev.pvtlb.smp.MmHandle;
import dev.pvtlb.internal.mm.ContendedLine;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.internal.mmu.HardwareWalker;
import dev.pvtlb.internal.mmu.PagingStructureCache;
import dev.pvtlb.internal.mmu.Walker;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.sim.Event;
import dev.pvtlb.smp.CallFunction;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;
import dev.pvtlb.internal.tlb.Tlb;
import java.util.ArrayDeque;

/**
 * One (virtual) CPU of the guest, the executor behind the SPI's {@link Cpu} view: its TLB, paging-structure cache, {@code cpu_tlbstate},
 * interrupt state, call-function queue and the stack of kernel paths it is running. As an
 * {@link Event} it runs one step of its top path each time the engine fires it.
 */
public final class KernelCpu implements Cpu, Event {
    public final int id;
    public final int socket;
    public final int core;
    public final int thread;
    private final Kernel guest;

    public final TlbState tlbState = new TlbState();
    private Tlb tlb;
    private final PagingStructureCache psc;
    private final HardwareWalker walker;
    /** Logical CPUs that share this CPU's TLB (SMT siblings with a shared TLB), self excluded. */
    private KernelCpu[] tlbSharers = new KernelCpu[0];
    /** Offset of this thread's hardware PCIDs in a TLB shared with siblings. */
    private int pcidBase = 0;
    /** The core's execution resources shared with its SMT siblings (see SmtSharing). */
    private SmtSharing smt = SmtSharing.NONE;
    /** The step in progress runs at 1000/this of its speed alone (1000: no sibling executing as it began). */
    private long stepSharePermille = 1000;

    // Per-CPU kernel state other CPUs touch, a cache line each (see ContendedLine).
    /** call_single_queue's head: llist_add() by senders, llist_del_all() by this CPU's handler. */
    final ContendedLine callSingleQueueLine = new ContendedLine();
    /** cpu_tlbstate_shared.is_lazy: written by this CPU, read by flush senders' should_flush_tlb(). */
    final ContendedLine tlbstateSharedLine = new ContendedLine();
    /** This CPU's flush_tlb_info (a per-CPU variable since 5.x): written here, read by the targets. */
    final ContendedLine flushTlbInfoLine = new ContendedLine();
    /**
     * The idle task's thread_info->flags, which the idle loop's MWAIT monitors on x86 bare metal
     * (mwait_idle_with_hints()): a waker's store of TIF_NEED_RESCHED to it ends the MWAIT.
     */
    final ContendedLine idleFlagsLine = new ContendedLine();
    private final Event pollWake = e -> wakeFromPolling();

    // Interrupts: the call-function vector only (the one TLB shootdown uses).
    private int irqOff;
    private boolean callFunctionPending;
    /** When the pending call-function IPI arrived (the first of those pending). */
    private long callFunctionPendingSince;
    final ArrayDeque<Csd> callSingleQueue = new ArrayDeque<>();
    private final CallFunctionInterrupt ipiHandler = new CallFunctionInterrupt();
    private final Event ipiArrival = this::ipiArrived;
    private final Event reschedArrival = this::reschedArrived;
    private final RescheduleInterrupt reschedHandler = new RescheduleInterrupt();
    /** RCU_SOFTIRQ: callbacks this CPU queued whose grace period has ended. */
    private final RcuSoftirq rcuSoftirq = new RcuSoftirq();

    // Execution.
    private KernelPath[] stack = new KernelPath[16];
    private int depth;
    private boolean queued;
    private boolean blocked;
    private long blockedSince;
    private TimeCategory blockedCategory = TimeCategory.IDLE;

    // Scheduling.
    private Task current;
    public final ArrayDeque<Task> runQueue = new ArrayDeque<>();
    /** Waiting for a queued spinlock in its spin loop (see {@link #isSpinning()}). */
    private boolean lockSpinning;
    /** Free pages on this CPU's per-CPU list (struct per_cpu_pages count), with pageLocks=on. */
    int pcpPages;
    /** Pages in this CPU's LRU-add page vector (lru_add_pvec), with pageLocks=on. */
    int lruPagevec;
    private boolean online = true;
    private boolean extendedQs;

    /** The data caches this CPU loads through, and its L1 DTLB (cost only: the STLB is {@link #tlb}). */
    private CacheHierarchy caches;
    private SetAssociativeCache dtlb;

    /** The last user address this CPU touched: where a speculative walk would go. */
    private long lastUserVa = -1;

    // Host: a vCPU only executes while the host runs it on some pCPU.
    private boolean vcpuRunning = true;
    private boolean parked;
    private long parkedSince;
    /** When the host last descheduled this vCPU (-1: it runs), and its descheduled time before that. */
    private long descheduledAt = -1;
    private long descheduledBefore;
    /** Steps left before {@link #stepPreemption} runs (0: none armed). */
    private int stepsToPreemption;
    private Runnable stepPreemption;

    public KernelCpu(Kernel guest, int id, int socket, int core, int thread, Tlb tlb, PagingStructureCache psc) {
        this.guest = guest;
        this.id = id;
        this.socket = socket;
        this.core = core;
        this.thread = thread;
        this.tlb = tlb;
        this.psc = psc;
        this.walker = new HardwareWalker(guest.mem(), guest.allocator().frames(), psc, id);
    }

    /** Wired once by the kernel after every CPU exists (siblings share their core's levels). */
    void caches(CacheHierarchy caches, SetAssociativeCache dtlb) {
        this.caches = caches;
        this.dtlb = dtlb;
    }

    /** Wired once by the kernel after every CPU exists: the siblings whose execution slows this one. */
    void smtSharing(SmtSharing smt) {
        this.smt = smt;
    }

    /**
     * Set by a step that ran what the exact level runs as several steps (Touch at the fast level):
     * its returned cost is the sum of theirs, each already scaled by SMT sharing, and
     * {@link #stepKernelNs} of it was kernel time.
     */
    private boolean stepCostScaled;
    private long stepKernelNs;

    /**
     * The step in progress returns a cost already scaled by SMT sharing, of which {@code kernelNs}
     * was spent in the kernel (faults taken inside a batch of user accesses, at the fast level).
     */
    public void stepCostScaled(long kernelNs) {
        stepCostScaled = true;
        stepKernelNs = kernelNs;
    }

    @Override
    public int id() {
        return id;
    }

    @Override
    public int socket() {
        return socket;
    }

    @Override
    public int core() {
        return core;
    }

    @Override
    public int thread() {
        return thread;
    }

    /** The kernel this CPU belongs to. */
    public Kernel kernel() {
        return guest;
    }

    public Tlb tlb() {
        return tlb;
    }

    public PagingStructureCache psc() {
        return psc;
    }

    public HardwareWalker walker() {
        return walker;
    }

    /** Makes this CPU share {@code sharers}' TLB; its PCIDs are offset so tags never collide. */
    public void shareTlb(Tlb shared, KernelCpu[] sharers, int pcidBase) {
        this.tlb = shared;
        this.tlbSharers = sharers;
        this.pcidBase = pcidBase;
    }

    public KernelCpu[] tlbSharers() {
        return tlbSharers;
    }

    /** kern_pcid(asid): the hardware PCID of a dynamic ASID slot (asid + 1; 0 is left unused). */
    public int pcid(int asid) {
        return pcidBase + asid + 1;
    }

    /** PCID of the currently loaded address space. */
    public int currentPcid() {
        return pcid(tlbState.loadedMmAsid);
    }

    @Override
    public Mm loadedMm() {
        return tlbState.loadedMm;
    }

    // ---------------------------------------------------------------- TLB maintenance instructions

    /** flush_tlb_one_user(va): INVLPG in the current PCID. */
    @Override
    public void invlpg(long va) {
        invlpgAsid(tlbState.loadedMmAsid, tlbState.loadedMm, va);
    }

    /**
     * Invalidates one page of {@code mm} cached under ASID slot {@code asid} (INVLPG in that
     * PCID, or INVPCID individual-address), here and in a TLB shared with SMT siblings.
     */
    @Override
    public void invlpgAsid(int asid, MmHandle mm, long va) {
        long vpn = va >>> 12;
        int pcid = pcid(asid);
        tlb.invalidate(pcid, vpn);
        psc.flushPcid(pcid);
        for (KernelCpu s : siblingsReached()) {
            int slot = s.asidSlotOf(mm);
            if (slot >= 0) {
                tlb.invalidate(s.pcid(slot), vpn);
                s.psc.flushPcid(s.pcid(slot));
            }
        }
    }

    /**
     * The SMT siblings whose entries of the same mm this thread's invalidation also drops in the
     * shared TLB: all of them under {@code smt.flushDropsSibling=true} (Alex Shi's assumption),
     * none otherwise (Intel documents no such guarantee).
     */
    private KernelCpu[] siblingsReached() {
        return guest.knobs().smtFlushDropsSibling ? tlbSharers : NO_CPUS;
    }

    private static final KernelCpu[] NO_CPUS = new KernelCpu[0];

    /** Drops every non-global translation of this CPU, all ASIDs (a flush done from outside the guest). */
    @Override
    public void flushAllAsids() {
        for (int asid = 0; asid < TlbState.NR_DYN_ASIDS; asid++) {
            tlb.flushPcid(pcid(asid));
        }
        psc.flushAll();
    }

    /** flush_tlb_local(): drop every non-global translation of the current PCID. */
    @Override
    public void flushTlbLocal() {
        flushAsid(tlbState.loadedMmAsid, tlbState.loadedMm);
    }

    /** Drops the translations cached under a dynamic ASID slot (a CR3 write without NOFLUSH). */
    @Override
    public void flushAsid(int asid, MmHandle mm) {
        int pcid = pcid(asid);
        tlb.flushPcid(pcid);
        psc.flushPcid(pcid);
        for (KernelCpu s : siblingsReached()) {
            int slot = s.asidSlotOf(mm);
            if (slot >= 0) {
                tlb.flushPcid(s.pcid(slot));
                s.psc.flushPcid(s.pcid(slot));
            }
        }
    }

    /** The ASID slot caching {@code mm}'s context on this CPU, or -1. */
    @Override
    public int asidSlotOf(MmHandle mm) {
        if (mm == null) {
            return -1;
        }
        for (int i = 0; i < TlbState.NR_DYN_ASIDS; i++) {
            if (tlbState.ctxId[i] == mm.ctxId()) {
                return i;
            }
        }
        return -1;
    }

    /**
     * A walk the CPU may do at any moment on its loaded CR3, even while lazy or idle
     * (speculation, prefetch): fills the TLB and the paging-structure caches. Returns the
     * leaf found or 0.
     */
    public long speculativeWalk(long va) {
        Mm mm = tlbState.loadedMm;
        int pcid = currentPcid();
        long pte = walker.walk(mm.pgd(), pcid, va, false, Walker.SPECULATIVE);
        if (pte != 0) {
            tlb.fill(pcid, va >>> 12, pte, guest.engine().now());
        }
        return pte;
    }

    /**
     * One user-mode load or store through the TLB, as the hardware does it: a hit costs a
     * cached access; a miss (or a store through a clean entry, which must set the dirty bit)
     * walks the page tables and fills the TLB. Returns the cost in picoseconds, or -1 when the
     * access faults (the faulting entry is dropped, as x86 does on a page fault).
     */
    public long userAccess(long va, boolean write) {
        lastUserVa = va;
        int pcid = currentPcid();
        long vpn = va >>> 12;
        Costs c = guest.costs();
        int i = tlb.lookup(pcid, vpn);
        if (i >= 0) {
            if (tlb.filledAt(i) < tlbState.loadedMm.lastFlushReturned()) {
                guest.hazardDetector().checkTranslation(this, tlb, i, va, write);
            }
            long pte = tlb.pte(i);
            if (!write || (pte & (Pte.RW | Pte.DIRTY)) == (Pte.RW | Pte.DIRTY)) {
                // An STLB hit: the L1 DTLB decides whether it costs more than the load itself.
                long ps = caches.loadPs(dataLine(pte, va));
                return dtlb.access(((long) pcid << 40) | vpn) ? ps : ps + c.stlbHitPs;
            }
            if (!Pte.writable(pte)) {
                tlb.invalidate(pcid, vpn);
                return -1;
            }
        } else {
            guest.vmstat().inc(Counter.TLB_MISSES);
        }
        long pte = walker.walk(tlbState.loadedMm.pgd(), pcid, va, write, Walker.HARDWARE);
        if (pte == 0) {
            return -1;
        }
        tlb.fill(pcid, vpn, pte, guest.engine().now());
        dtlb.access(((long) pcid << 40) | vpn);
        // Each table read of the walk is a load through the caches: after a flush, a working set
        // whose page-table lines were pushed out refills from the L2, the LLC or memory.
        long walkPs = 0;
        for (int r = 0, n = walker.levelsRead(); r < n; r++) {
            walkPs += Math.max(c.walkLevelPs, caches.loadPs(walker.readLine(r)));
        }
        guest.ledger().addPs(dev.pvtlb.stats.CostPart.TLB_REFILLS, walkPs);
        return caches.loadPs(dataLine(pte, va)) + walkPs;
    }

    /**
     * What a host flush of this vCPU (kvm_flush_remote_tlbs() under shadow paging) leaves: the
     * hardware TLB is emptied, but a refill walks the host's shadow tables, whose entry for an
     * address the guest changed and has not flushed yet is still the old one (the guest's own flush
     * of that address is what syncs it). So the loaded mm's entries that its page tables still back
     * go, and those they no longer back (what a guest bug leaves stale) stay, as a refill would
     * bring them back; other PCIDs' entries and the paging-structure caches stay too. The model has
     * no shadow tables; this keeps a host flush from hiding a guest's missing flush.
     */
    public void flushBackedTranslations() {
        Mm mm = tlbState.loadedMm;
        if (mm == null || mm.isInitMm()) {
            return;
        }
        int pgd = mm.pgd();
        dev.pvtlb.internal.mmu.PageTables pt = guest.pageTables();
        tlb.invalidateIf(currentPcid(), (vpn, pte) -> {
            long now = pt.get(pgd, vpn << 12);
            return Pte.present(now) && Pte.pfnOf(now) == Pte.pfnOf(pte) && (!Pte.writable(pte) || Pte.writable(now));
        });
    }

    /** A kernel store to physical line {@code line} on this CPU: it is now in this CPU's caches (its cost is the caller's). */
    public void storeLine(long line) {
        caches.loadPs(line);
    }

    /** The physical line a load of {@code va} through {@code pte} reads. */
    static long dataLine(long pte, long va) {
        return (Pte.pfnOf(pte) << 6) | ((va >>> 6) & 63);
    }

    // ---------------------------------------------------------------- interrupts

    @Override
    public boolean irqsDisabled() {
        return irqOff > 0;
    }

    /** local_irq_disable() (nesting, like local_irq_save). */
    public void irqDisable() {
        irqOff++;
    }

    /** local_irq_enable(): a pending interrupt is taken before the next step. */
    public void irqEnable() {
        if (irqOff == 0) {
            throw new IllegalStateException("cpu" + id + ": IRQs enabled twice");
        }
        irqOff--;
    }

    /**
     * Queues a csd on this CPU: {@code func} to run here, {@code done} to run once it has
     * (csd_unlock). True when the queue was empty, i.e. the sender must IPI.
     */
    public boolean queueCsd(KernelCpu from, CallFunction func, java.util.function.Consumer<KernelCpu> done) {
        boolean wasEmpty = callSingleQueue.isEmpty();
        callSingleQueue.add(new Csd(from, func, done));
        return wasEmpty;
    }

    /** A load of {@code line} by this CPU at {@code at}: its cost in ns, waiting for transfers in flight included. */
    public long readLine(ContendedLine line, long at) {
        return transfer(line.read(id, socket, core, at, guest.costs()));
    }

    /** A store or atomic on {@code line} by this CPU at {@code at}: its cost in ns, waiting included. */
    public long writeLine(ContendedLine line, long at) {
        return transfer(line.write(id, socket, core, at, guest.costs()));
    }

    /** Books what a line access cost beyond a hit as LINE_TRANSFERS. */
    private long transfer(long cost) {
        long beyondHit = cost - guest.costs().lineLocalNs;
        if (beyondHit > 0) {
            guest.ledger().addNs(dev.pvtlb.stats.CostPart.LINE_TRANSFERS, beyondHit);
        }
        return cost;
    }

    /**
     * One cache line that only this CPU and {@code other} touch, taken from {@code other}'s
     * cache (a csd between its sender and its target): a hit between SMT siblings, which share
     * the core's caches, else a same- or cross-socket transfer.
     */
    public long lineFrom(KernelCpu other) {
        return transfer(ContendedLine.between(other.socket, other.core, socket, core, guest.costs()));
    }

    /**
     * Schedules the IPI of {@code kind} {@code from} sent at {@code sentAt} to arrive at {@code time}
     * ({@code how}: how it travels, for a timeline).
     */
    public void scheduleIpiArrival(String how, KernelCpu from, long sentAt, long time, dev.pvtlb.smp.IpiKind kind) {
        guest.cpuTime().flow(how, from.id, sentAt, id, time);
        guest.engine().at(time, kind == dev.pvtlb.smp.IpiKind.RESCHEDULE ? reschedArrival : ipiArrival);
    }

    /** At {@code time}, the store that set TIF_NEED_RESCHED reaches this CPU's MWAIT monitor (see {@link Kernel#wakeIdle}). */
    void schedulePollingWake(long time) {
        guest.engine().at(time, pollWake);
    }

    /** MWAIT ends on the monitored store: an idle CPU goes back to its idle loop, which schedules the woken task; no interrupt. */
    private void wakeFromPolling() {
        if (isHalted()) {
            wake();
        }
    }

    /** A RESCHEDULE_VECTOR IPI: a woken task waits in the run queue; a halted CPU leaves HLT to run it. */
    private void reschedArrived(Engine e) {
        guest.vmstat().inc(Counter.IPIS_RECEIVED);
        if (blocked && irqOff == 0 && blockedCategory == TimeCategory.IDLE) {
            call(reschedHandler);
            wake();
        }
    }

    private void ipiArrived(Engine e) {
        guest.vmstat().inc(Counter.IPIS_RECEIVED);
        if (!callFunctionPending) {
            callFunctionPendingSince = e.now();
        }
        callFunctionPending = true;
        if (blocked && irqOff == 0) {
            wake();
        }
    }

    public boolean callFunctionPending() {
        return callFunctionPending;
    }

    /**
     * A callback this CPU queued with call_rcu() is ready: raise RCU_SOFTIRQ (an idle CPU leaves
     * its idle loop to run it, as the grace-period kthread's wake-up of rcu_core() makes it).
     */
    void rcuCallbackReady(RcuCallback cb) {
        rcuSoftirq.add(cb);
        if (blocked && irqOff == 0 && blockedCategory == TimeCategory.IDLE) {
            wake();
        }
    }

    // ---------------------------------------------------------------- execution

    /** Starts {@code path} on this CPU: it runs next, then returns to the caller. */
    @Override
    public void call(KernelPath path) {
        if (depth == stack.length) {
            stack = java.util.Arrays.copyOf(stack, depth * 2);
        }
        path.restart();
        stack[depth++] = path;
    }

    /** Ends the path on top of the stack. */
    @Override
    public void ret() {
        stack[--depth] = null;
    }

    public KernelPath top() {
        return depth == 0 ? null : stack[depth - 1];
    }

    public boolean isBlocked() {
        return blocked;
    }

    /** Makes a blocked CPU run again now (the waited-for condition may hold). */
    @Override
    public void wake() {
        if (!blocked) {
            return;
        }
        long now = guest.engine().now();
        blocked = false;
        bookBlocked(now);
        enqueue(now);
        if (blockedCategory == TimeCategory.IDLE && guest.vcpuHost() != null) {
            guest.vcpuHost().kicked(this);
        }
    }

    /**
     * Books the blocked stretch up to {@code now}. A CPU blocked other than idle is busy-waiting
     * (csd_lock_wait(), a spinlock's slow path): while the host has its vCPU descheduled, the
     * stretch is the guest's steal time, not the wait's (the host books it so at each deschedule
     * and resume, {@link #vcpuPreempt}, {@link #vcpuResume}); a spin for a lock is lock_spin.
     */
    private void bookBlocked(long now) {
        TimeCategory c = blockedCategory;
        if (c != TimeCategory.IDLE) {
            if (!vcpuRunning) {
                c = TimeCategory.STOLEN;
            } else if (lockSpinning && c == TimeCategory.KERNEL) {
                c = TimeCategory.LOCK_SPIN;
            }
        }
        guest.cpuTime().book(id, c, blockedSince, now);
        blockedSince = now;
    }

    /** HLT: on a host, the vCPU exits and stops being runnable. */
    private void halted() {
        if (guest.vcpuHost() != null) {
            guest.vcpuHost().halted(this);
        }
    }

    /**
     * Spinning in a PAUSE loop: with IRQs on until other CPUs ran a call (csd_lock_wait), or on a
     * queued spinlock (SpinLockedSection). What a pause-loop exit catches.
     */
    public boolean isSpinning() {
        return blocked && (blockedCategory == TimeCategory.IPI_WAIT || lockSpinning);
    }

    /** Set while this CPU waits for a queued spinlock in its spin loop (not once it halts in pv_wait). */
    void lockSpinning(boolean on) {
        lockSpinning = on;
    }

    /** Running a task's user code (a vCPU preempted here was not preempted in kernel mode). */
    public boolean inUserMode() {
        return depth > 0 && stack[depth - 1] instanceof UserMode;
    }

    /**
     * Executing instructions on its core: not blocked (halted in HLT, or waiting in a PAUSE loop)
     * and not descheduled by the host; what slows an SMT sibling (see SmtSharing).
     */
    boolean executing() {
        return !blocked && vcpuRunning && depth > 0;
    }

    /**
     * How much slower than alone the step in progress runs, in thousandths (1000 when no SMT
     * sibling was executing as it began): the step's cost is scaled by it, and a batch that
     * measures its own latency or stops at the engine's horizon uses it (see SmtSharing).
     */
    public long stepSharePermille() {
        return stepSharePermille;
    }

    /** Whether this CPU is halted in its idle loop (blocked in HLT). */
    public boolean isHalted() {
        return blocked && blockedCategory == TimeCategory.IDLE;
    }

    /** Blocked other than halted: busy-waiting (csd_lock_wait(), a spinlock's slow path; see bookBlocked). */
    private boolean busyWaiting() {
        return blocked && blockedCategory != TimeCategory.IDLE;
    }

    /**
     * Charges {@code ns} of someone else's work to this CPU at its next step boundary, whatever
     * its IRQ state (see {@link HostWork}). A vCPU that is not running pays nothing.
     */
    @Override
    public void injectHostWork(long ns, TimeCategory category, String name) {
        if (!vcpuRunning || ns <= 0 || isHalted()) {
            return;
        }
        call(new HostWork(ns, category, name));
        if (blocked) {
            wake();
        }
    }

    /** Puts this CPU in the engine's queue at {@code time} unless it is there already. */
    public void enqueue(long time) {
        if (!queued && !blocked) {
            queued = true;
            guest.engine().at(time, this);
        }
    }

    @Override
    public void fire(Engine e) {
        queued = false;
        long now = e.now();
        if (!vcpuRunning) {
            parked = true;
            parkedSince = now;
            return;
        }
        if (callFunctionPending && irqOff == 0) {
            callFunctionPending = false;
            guest.ledger().addNs(dev.pvtlb.stats.CostPart.IPI_DELIVERY, now - callFunctionPendingSince);
            call(ipiHandler);
        } else if (irqOff == 0 && rcuSoftirq.pending() && top() != rcuSoftirq) {
            // The softirq runs at a step boundary with IRQs on, before the interrupted path resumes.
            call(rcuSoftirq);
        }
        if (depth == 0) {
            blocked = true;
            blockedSince = now;
            blockedCategory = TimeCategory.IDLE;
            halted();
            return;
        }
        KernelPath p = stack[depth - 1];
        if (guest.stepLog() != null) {
            guest.stepLog().add(now, id, p.describe());
        }
        // The step's cost belongs to the work it is about to do; a block belongs to the state
        // the step left (e.g. smp_call_function_many_cond: local call, then csd_lock_wait).
        TimeCategory workCategory = p.category();
        // SMT execution sharing: a sibling executing as the step begins slows it (SmtSharing).
        stepSharePermille = smt.permilleNow();
        stepCostScaled = false;
        long cost = p.step(this);
        if (cost == KernelPath.BLOCK) {
            if (callFunctionPending && irqOff == 0) {
                // An interrupt is pending: take it instead of sleeping.
                queued = true;
                e.at(now, this);
                return;
            }
            blocked = true;
            blockedSince = now;
            blockedCategory = p.category();
            if (blockedCategory == TimeCategory.IDLE) {
                halted();
            } else if (isSpinning() && guest.vcpuHost() != null) {
                guest.vcpuHost().spinning(this);
            }
            return;
        }
        if (stepCostScaled) {
            // A fast-level batch of user accesses that took faults within it: their part of the
            // step is kernel time, booked after the accesses (Touch, PageFault.inline).
            long k = Math.min(cost, stepKernelNs);
            guest.cpuTime().book(id, workCategory, now, now + cost - k);
            guest.cpuTime().book(id, TimeCategory.KERNEL, now + cost - k, now + cost);
        } else {
            cost = SmtSharing.scale(cost, stepSharePermille);
            guest.cpuTime().book(id, workCategory, now, now + cost);
        }
        if (stepsToPreemption > 0 && --stepsToPreemption == 0) {
            // Queued first: at the step's end the host takes the pCPU before the next step.
            Runnable r = stepPreemption;
            stepPreemption = null;
            e.at(now + cost, ev -> r.run());
        }
        queued = true;
        e.at(now + cost, this);
    }

    /**
     * The host's hook for preempting this vCPU at a step the explorer chose: {@code action} runs
     * when the {@code steps}-th step from now has ended (before the vCPU's next step, or just after).
     */
    public void preemptAfterSteps(int steps, Runnable action) {
        stepsToPreemption = steps;
        stepPreemption = action;
    }

    // ---------------------------------------------------------------- host hooks

    /** The host deschedules this vCPU: it runs no step until {@link #vcpuResume}. */
    public void vcpuPreempt() {
        if (vcpuRunning) {
            descheduledAt = guest.engine().now();
            if (busyWaiting()) {
                bookBlocked(descheduledAt); // the spin so far; from here its vCPU's time is stolen
            }
        }
        vcpuRunning = false;
    }

    /** The host runs this vCPU again; time spent parked counts as stolen. */
    public void vcpuResume() {
        if (!vcpuRunning && busyWaiting()) {
            bookBlocked(guest.engine().now()); // stolen while it spun descheduled
        }
        if (!vcpuRunning && descheduledAt >= 0) {
            descheduledBefore += guest.engine().now() - descheduledAt;
            descheduledAt = -1;
        }
        vcpuRunning = true;
        if (parked) {
            parked = false;
            long now = guest.engine().now();
            guest.cpuTime().book(id, TimeCategory.STOLEN, parkedSince, now);
            queued = true;
            guest.engine().at(now, this);
        }
    }

    public long lastUserVa() {
        return lastUserVa;
    }

    @Override
    public boolean vcpuRunning() {
        return vcpuRunning;
    }

    @Override
    public boolean isLazy() {
        return tlbState.lazyVisible();
    }

    @Override
    public boolean idle() {
        return current == null;
    }

    /**
     * The virtual time this vCPU has spent descheduled by the host so far, the current stretch
     * included: what a loop that counts its turns (qspinlock_paravirt.h's SPIN_THRESHOLD) did not
     * count.
     */
    public long descheduledNs() {
        return descheduledBefore + (descheduledAt < 0 ? 0 : guest.engine().now() - descheduledAt);
    }

    // ---------------------------------------------------------------- scheduling state

    public Task current() {
        return current;
    }

    public void current(Task t) {
        this.current = t;
    }

    @Override
    public boolean online() {
        return online;
    }

    /** In an RCU extended quiescent state (idle in HLT). */
    public boolean inExtendedQs() {
        return extendedQs;
    }

    public void extendedQs(boolean on) {
        this.extendedQs = on;
    }

    /** Before {@link #reset}: TLB and caches as new, as a guest reset needs for an exact rerun. */
    public void resetHard() {
        tlb.clear();
        psc.clear();
        blockedSince = 0;
        blockedCategory = TimeCategory.IDLE;
        parkedSince = 0;
    }

    /** Resets all per-CPU state for a new run on the same guest. */
    public void reset(Mm initMm) {
        tlbState.reset(initMm);
        tlbState.memoryModel(MemoryModel.of(kernel().knobs().memoryModel));
        tlb.flushAll();
        psc.flushAll();
        irqOff = 0;
        callFunctionPending = false;
        callSingleQueue.clear();
        callSingleQueueLine.reset();
        idleFlagsLine.reset();
        tlbstateSharedLine.reset();
        flushTlbInfoLine.reset();
        ipiHandler.reset();
        rcuSoftirq.clear();
        java.util.Arrays.fill(stack, null);
        depth = 0;
        queued = false;
        blocked = false;
        current = null;
        runQueue.clear();
        extendedQs = false;
        lastUserVa = -1;
        stepSharePermille = 1000;
        vcpuRunning = true;
        parked = false;
        descheduledAt = -1;
        descheduledBefore = 0;
        stepsToPreemption = 0;
        stepPreemption = null;
        lockSpinning = false;
        pcpPages = 0;
        lruPagevec = 0;
    }

    /** This CPU and its stack of kernel paths, innermost last ("cpu3 in do_idle > user:t3 > handle_mm_fault"). */
    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder("cpu").append(id);
        if (depth == 0) {
            return sb.append(" (no kernel path)").toString();
        }
        sb.append(" in ");
        for (int i = 0; i < depth; i++) {
            sb.append(i == 0 ? "" : " > ").append(stack[i].describe());
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "cpu" + id;
    }
}
