package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.MmHandle;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.HardwareWalker;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.PagingStructureCache;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.sim.Event;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.VcpuHost;
import dev.pvtlb.stats.TimeCategory;
import dev.pvtlb.internal.tlb.Tlb;

/**
 * One (virtual) CPU of the guest, the executor behind the SPI's {@link Cpu} view. As an
 * {@link Event} it runs one step of the top path of its {@link PathStack} each time the engine
 * fires it, blocks (halted in HLT, or busy-waiting) until woken, and holds what the step works
 * on: {@code cpu_tlbstate}, its {@link LocalTlb}, {@link CpuInterrupts}, {@link CpuLines},
 * {@link RunQueue}, how its steps are timed ({@link StepTime}) and whether the host runs its vCPU
 * ({@link VcpuRunState}).
 */
public final class KernelCpu implements Cpu, Event, InterruptibleCpu, VcpuExecution {
    public final int id;
    public final int socket;
    public final int core;
    public final int thread;
    private final Kernel guest;

    public final TlbState tlbState = new TlbState();
    private final LocalTlb localTlb;
    private final StepTime stepTime;
    private final StepSchedule schedule;
    /** Its per-CPU lines other CPUs touch, and its loads and stores of shared lines. */
    public final CpuLines lines;
    private final CpuInterrupts interrupts;

    private final PathStack paths = new PathStack();
    private boolean blocked;
    private long blockedSince;
    private TimeCategory blockedCategory = TimeCategory.IDLE;

    /** Its run queue: the task it runs and those waiting for it. */
    public final RunQueue<Task> rq = new RunQueue<>();
    /** The queued spinlock it waits for in its spin loop, or null (see {@link #isSpinning()}). */
    QueuedSpinLock<KernelCpu> spinLock;
    /** Its per-CPU page list and LRU-add vector counts (pageLocks=on). */
    final PerCpuPages pages = new PerCpuPages();

    // Host: a vCPU only executes while the host runs it on some pCPU.
    private final VcpuRunState runState;

    KernelCpu(Kernel guest, int id, int socket, int core, int thread, Tlb tlb, PagingStructureCache psc, HardwareWalker walker,
              PageTables pageTables) {
        this.guest = guest;
        this.id = id;
        this.socket = socket;
        this.core = core;
        this.thread = thread;
        this.localTlb = new LocalTlb(id, tlbState, tlb, psc, walker, guest.engine(), guest.costs(), guest.knobs(),
                guest.vmstat(), guest.ledger(), pageTables);
        this.interrupts = new CpuInterrupts(this, guest.engine(), guest.cpuTime(), guest.vmstat(), guest.ledger());
        this.lines = new CpuLines(this, guest.costs(), guest.ledger());
        this.schedule = new StepSchedule(guest.engine(), this, this::fireDue);
        this.stepTime = new StepTime(id, guest.cpuTime(), schedule);
        this.runState = new VcpuRunState(this, guest.engine(), guest.cpuTime());
    }

    /** How long its steps take (SMT sharing) and what they are booked as. */
    public StepTime stepTime() {
        return stepTime;
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

    /** Its address translation and local TLB maintenance. */
    public LocalTlb localTlb() {
        return localTlb;
    }

    @Override
    public Mm loadedMm() {
        return tlbState.loadedMm;
    }

    /** flush_tlb_one_user(va): INVLPG in the current PCID. */
    @Override
    public void invlpg(long va) {
        invlpgAsid(tlbState.loadedMmAsid, tlbState.loadedMm, va);
    }

    @Override
    public void invlpgAsid(int asid, MmHandle mm, long va) {
        localTlb.invlpgAsid(asid, mm, va);
    }

    /** Drops every non-global translation of this CPU, all ASIDs (a flush done from outside the guest). */
    @Override
    public void flushAllAsids() {
        localTlb.flushAllAsids();
    }

    /** flush_tlb_local(): drop every non-global translation of the current PCID. */
    @Override
    public void flushTlbLocal() {
        flushAsid(tlbState.loadedMmAsid, tlbState.loadedMm);
    }

    @Override
    public void flushAsid(int asid, MmHandle mm) {
        localTlb.flushAsid(asid, mm);
    }

    @Override
    public int asidSlotOf(MmHandle mm) {
        return localTlb.asidSlotOf(mm);
    }

    @Override
    public boolean irqsDisabled() {
        return interrupts.disabled();
    }

    /** Its interrupt state: IRQs on or off, pending vectors, call_single_queue, RCU_SOFTIRQ. */
    public CpuInterrupts interrupts() {
        return interrupts;
    }

    /** Starts {@code path} on this CPU: it runs next, then returns to the caller. */
    @Override
    public void call(KernelPath path) {
        paths.push(path);
    }

    /** Ends the path on top of the stack. */
    @Override
    public void ret() {
        paths.pop();
    }

    public KernelPath top() {
        return paths.top();
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
     * Books the blocked stretch up to {@code now}. Blocked other than idle is busy-waiting: while the
     * host has the vCPU descheduled that is steal time (booked at each {@link VcpuRunState#preempt}
     * and {@link VcpuRunState#resume}); a spin for a lock is lock_spin.
     */
    @Override
    public void bookBlocked(long now) {
        TimeCategory c = blockedCategory;
        if (c != TimeCategory.IDLE) {
            if (!runState.running()) {
                c = TimeCategory.STOLEN;
            } else if (spinLock != null && c == TimeCategory.KERNEL) {
                c = TimeCategory.LOCK_SPIN;
            }
        }
        guest.cpuTime().book(id, c, blockedSince, now);
        blockedSince = now;
    }

    /**
     * Stops stepping from {@code now} until woken: halted in HLT when {@code category} is IDLE (on a
     * host the vCPU exits and stops being runnable), else busy-waiting as {@code category} (on a
     * host, a PAUSE loop the pause-loop exiting watches).
     */
    private void block(long now, TimeCategory category) {
        blocked = true;
        blockedSince = now;
        blockedCategory = category;
        VcpuHost host = guest.vcpuHost();
        if (host == null) {
            return;
        }
        if (category == TimeCategory.IDLE) {
            host.halted(this);
        } else if (isSpinning()) {
            host.spinning(this);
        }
    }

    /** Spinning in a PAUSE loop (csd_lock_wait() with IRQs on, a queued spinlock's): what a pause-loop exit catches. */
    public boolean isSpinning() {
        return blocked && (blockedCategory == TimeCategory.IPI_WAIT || spinLock != null);
    }

    /** Set while this CPU waits for {@code lock} in its spin loop (null once it has it or halts in pv_wait). */
    void lockSpinning(QueuedSpinLock<KernelCpu> lock) {
        spinLock = lock;
    }

    /** Running a task's user code (a vCPU preempted here was not preempted in kernel mode). */
    public boolean inUserMode() {
        return paths.top() instanceof UserSpacePath;
    }

    /** Executing on its core: not blocked (in HLT or a PAUSE loop), not descheduled; what slows an SMT sibling. */
    public boolean executing() {
        return !blocked && runState.running() && !paths.isEmpty();
    }

    /** Whether this CPU is halted in its idle loop (blocked in HLT). */
    public boolean isHalted() {
        return blocked && blockedCategory == TimeCategory.IDLE;
    }

    /** Blocked other than halted: busy-waiting (csd_lock_wait(), a spinlock's slow path; see bookBlocked). */
    @Override
    public boolean busyWaiting() {
        return blocked && blockedCategory != TimeCategory.IDLE;
    }

    /**
     * Charges {@code ns} of someone else's work to this CPU at its next step boundary, whatever
     * its IRQ state (see {@link HostWork}). A vCPU that is not running pays nothing.
     */
    @Override
    public void injectHostWork(long ns, TimeCategory category, String name) {
        if (!runState.running() || ns <= 0 || isHalted()) {
            return;
        }
        call(new HostWork(ns, category, name));
        if (blocked) {
            wake();
        }
    }

    /** Puts this CPU in the engine's queue at {@code time} unless it is there already. */
    public void enqueue(long time) {
        if (!schedule.queued() && !blocked) {
            stepAt(time);
        }
    }

    @Override
    public void fire(Engine e) {
        if (schedule.selfDue(e)) {
            fireDue(e);
        }
    }

    /** Its step came due: the one in progress ends, the next runs, SMT siblings hear if it stopped or started executing. */
    private void fireDue(Engine e) {
        stepTime.ended(e.now());
        step(e.now());
        executionMayHaveChanged();
    }

    private void step(long now) {
        if (!runState.running()) {
            runState.park(now);
            return;
        }
        interrupts.takePending(now);
        KernelPath p = paths.top();
        if (p == null) {
            block(now, TimeCategory.IDLE);
            return;
        }
        if (guest.stepLog() != null) {
            guest.stepLog().add(now, id, p.describe());
        }
        // The step's cost belongs to the work it is about to do; a block belongs to the state
        // the step left (e.g. smp_call_function_many_cond: local call, then csd_lock_wait).
        TimeCategory workCategory = p.category();
        stepTime.begin(); // at the pace its SMT siblings allow now (SmtSharing)
        long cost = p.step(this);
        if (cost == KernelPath.BLOCK) {
            if (interrupts.callFunctionDeliverable()) {
                // An interrupt is pending: take it instead of sleeping.
                stepAt(now);
                return;
            }
            block(now, p.category());
            return;
        }
        cost = stepTime.book(workCategory, now, cost);
        // Queued first: at the step's end the host takes the pCPU before the next step.
        runState.stepEnded(now + cost);
        stepAt(now + cost);
    }

    /** Queues this CPU's next step at {@code time} (a parked vCPU the host runs again steps now). */
    @Override
    public void stepAt(long time) {
        schedule.at(time);
    }

    @Override
    public void executionMayHaveChanged() {
        if (stepTime.sharesCore()) {
            stepTime.executing(executing(), guest.engine().now());
        }
    }

    /** Whether the host runs this vCPU, and its hooks to deschedule and resume it. */
    public VcpuRunState runState() {
        return runState;
    }

    @Override
    public boolean vcpuRunning() {
        return runState.running();
    }

    @Override
    public boolean isLazy() {
        return tlbState.lazyVisible();
    }

    @Override
    public boolean idle() {
        return rq.current() == null;
    }

    @Override
    public boolean online() {
        return true; // the model has no CPU hotplug
    }

    /** Before {@link #reset}: TLB and caches as new, as a guest reset needs for an exact rerun. */
    public void resetHard() {
        localTlb.clear();
        blockedSince = 0;
        blockedCategory = TimeCategory.IDLE;
        runState.clear();
    }

    /** Resets all per-CPU state for a new run on the same guest. */
    public void reset(Mm initMm) {
        tlbState.reset(initMm);
        tlbState.memoryModel(MemoryModel.of(kernel().knobs().memoryModel), kernel().engine(), kernel().costs().storeDrainMaxNs);
        localTlb.reset();
        interrupts.reset();
        lines.reset();
        paths.clear();
        blocked = false;
        rq.clear();
        stepTime.reset();
        runState.reset();
        spinLock = null;
        pages.clear();
    }

    /** This CPU and its stack of kernel paths, innermost last ("cpu3 in do_idle > user:t3 > handle_mm_fault"). */
    @Override
    public String describe() {
        return paths.isEmpty() ? "cpu" + id + " (no kernel path)" : "cpu" + id + " in " + paths.describe();
    }

    @Override
    public String toString() {
        return "cpu" + id;
    }
}
