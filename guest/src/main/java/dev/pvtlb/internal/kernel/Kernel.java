package dev.pvtlb.internal.kernel;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.pvops.GuestKnobs;
import dev.pvtlb.pvops.KnobRegistry;
import dev.pvtlb.flush.FlushChecker;
import dev.pvtlb.hazard.HazardLog;
import dev.pvtlb.hazard.StepLog;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.internal.mem.FrameAllocator;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvOps;
import dev.pvtlb.internal.sim.Chooser;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.sim.Rng;
import dev.pvtlb.internal.sim.SeededChooser;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.smp.VcpuHost;
import dev.pvtlb.stats.CpuTime;
import dev.pvtlb.stats.TraceStream;
import dev.pvtlb.stats.VmStat;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The kernel context of a booted guest: physical memory with its page tables, the CPUs with
 * their TLBs, init_mm, the engine that runs them, and the pv_ops the kernel was patched with.
 * The composition root of the model, and what kernel paths receive; a program sees it only
 * through its public facade, {@code dev.pvtlb.Guest}, and a backend through
 * {@code BackendContext} (FacadeAccess.backendContext).
 */
public final class Kernel implements AutoCloseable {
    /** The {@code dev.pvtlb.Guest} in front of this kernel (the model does not name the API). */
    private final Object facade;
    /** What a backend is attached with (FacadeAccess.backendContext, built above the kernel). */
    private final Function<Kernel, BackendContext> backendContexts;
    private final Function<KernelCpu, KernelPath> idleLoops;
    private final GuestConfig config;
    private final Profile profile;
    private final Costs costs;
    private final Knobs knobs;
    private final GuestKnobs guestKnobs;
    private Rng rng;
    private final Engine engine;
    /** The fast fidelity level: some private step sequences run as one event (config.fidelity()). */
    private final boolean fast;
    private final Machine machine;
    private final VmStat vmstat = new VmStat();
    private final IpiSender ipis;
    private final CpuTime cpuTime;
    private final CostLedger ledger = new CostLedger();
    private final TraceStream trace = new TraceStream();
    private final HazardLog hazards;
    private final HazardDetector hazardDetector;
    private final Speculation speculation;
    private StepLog stepLog;
    private final KernelCpu[] cpus;
    private final Rcu rcu;
    private Mm initMm;
    private final Processes processes = new Processes();
    private final PatchedPvOps pvOps = new PatchedPvOps();
    private FlushChecker checker;
    /** The guest whose host and engine this one shares (a co-guest: another VM running its own workload), or null. */
    private final Kernel primary;
    /** Which VM of the host this guest is: 0 for the guest a run reports on, 1.. for its co-guests. */
    private final int vmIndex;

    /**
     * Builds the kernel; {@link KernelBoot} then ties it to {@code facade} and starts it
     * ({@link #start()}). KernelBoot hands it {@code backendContexts} (what the backend is attached
     * with, at boot and every reset), {@code idleLoops} (each CPU's do_idle() with __schedule(),
     * IdleLoop) and {@code apic} (the IPI delivery of a backend that brings none, BareMetalIpi).
     */
    Kernel(GuestConfig config, Chooser chooser, Object facade, Kernel primary, int vmIndex,
           Function<Kernel, BackendContext> backendContexts, Function<KernelCpu, KernelPath> idleLoops,
           Supplier<IpiDelivery> apic) {
        this.facade = facade;
        this.backendContexts = backendContexts;
        this.idleLoops = idleLoops;
        this.primary = primary;
        this.vmIndex = vmIndex;
        this.config = config;
        this.profile = config.profile();
        this.costs = new Costs(profile);
        this.knobs = KnobRegistry.resolve(config.backend(), config.knobs(), config.workloadKnobs());
        this.guestKnobs = new GuestKnobs(knobs);
        this.rng = new Rng(config.seed());
        this.fast = config.fidelity() == dev.pvtlb.config.Fidelity.FAST;
        this.engine = primary != null ? primary.engine
                : new Engine(chooser != null ? chooser : new SeededChooser(rng.forPurpose("chooser").nextLong()),
                        config.quantumNs());
        int n = config.topology().cpus();
        this.cpuTime = new CpuTime(n);
        // x86 bare metal idles in MWAIT on its thread flags: a wake-up needs no IPI (IpiSender.wakeIdle).
        this.ipis = new IpiSender(engine, vmstat, !config.backend().virtualized() && "x86".equals(profile.arch()),
                apic, id -> cpu(id).lines, id -> cpu(id).interrupts());
        this.machine = new Machine(this, config.topology(), config.memoryBytes(), config.sharedSmtTlb(), profile, costs);
        this.cpus = machine.cpus;
        this.hazards = new HazardLog(trace);
        this.hazardDetector = new HazardDetector(machine.pageTables, engine, hazards);
        for (KernelCpu c : cpus) {
            c.localTlb().detector(hazardDetector);
        }
        this.speculation = config.speculativeWalks() ? new Speculation(engine, costs, n, this::liveTasks) : null;
        this.rcu = new Rcu(guestKnobs, vmstat, cpus, id -> cpus[id].interrupts());
    }

    /** What boot does after building the machine: init_mm, idle loops, pv_ops patching. */
    void start() {
        this.initMm = processes.initMm(machine.pageTables, cpus.length);
        machine.clearCaches();
        for (KernelCpu c : cpus) {
            c.reset(initMm);
            c.call(idleLoops.apply(c));
            c.enqueue(0);
        }
        // Boot-time patching: the backend installs its host model, then pv_ops is generated.
        PvBackend backend = config.backend();
        pvOps.patch(backend, backendContexts.apply(this), knobs, ipis::delivery,
                config.tracePvOps() ? new PvOpsTracer(trace(), engine(), backend.name()) : null);
    }

    /** The object whose @PvOp methods implement pv_ops, as the backend attached it. */
    public Object backendOps() {
        return pvOps.backendOps();
    }

    /**
     * Puts this guest back in the state {@link KernelBoot#boot} leaves it in, with {@code chooser}
     * answering its choice points: memory, TLBs and caches emptied, counters and hazards
     * cleared, no process or task, the backend attached again. The explorer runs schedule after
     * schedule on one guest this way instead of allocating a new machine each time; a reset
     * guest behaves exactly as a freshly booted one with the same configuration.
     */
    public void reset(Chooser chooser) {
        if (primary != null) {
            throw new IllegalStateException("a co-guest is not reset: it lives as long as its primary's run");
        }
        rng = new Rng(config.seed());
        engine.reset();
        engine.chooser(chooser != null ? chooser : new SeededChooser(rng.forPurpose("chooser").nextLong()));
        machine.reset();
        vmstat.reset();
        cpuTime.reset();
        ledger.reset();
        trace.clear();
        hazards.clear();
        hazards.listener(null);
        stepLog = null;
        rcu.reset();
        processes.clear();
        ipis.delivery(null);
        pvOps.clear();
        checker = null;
        for (KernelCpu c : cpus) {
            c.resetHard();
        }
        start();
    }

    /** The guest whose host and engine this co-guest shares; null for a primary guest. */
    public Kernel primaryGuest() {
        return primary;
    }

    /** This guest's VM on its host: 0 for a primary guest, 1.. for a co-guest. */
    public int vmIndex() {
        return vmIndex;
    }

    /** The public facade of this kernel, a {@code dev.pvtlb.Guest}. */
    public Object facade() {
        return facade;
    }

    // ------------------------------------------------------------------ building a workload

    /** mm_alloc() for a new process. */
    public Mm newMm() {
        return processes.newMm(machine.pageTables, cpus.length);
    }

    /**
     * Creates a runnable task of {@code mm} that starts on {@code cpu} and may run on every CPU: the
     * guest scheduler moves it when {@code sched.balance=idle} (a thread nobody pinned).
     */
    public Task spawn(String name, Mm mm, int cpu, Program program) {
        return spawn(name, mm, cpu, null, program);
    }

    /**
     * Creates a runnable task of {@code mm} pinned to {@code cpu} alone (taskset -c, or a race whose
     * roles must meet on given CPUs): no balancing moves it.
     */
    public Task spawnPinned(String name, Mm mm, int cpu, Program program) {
        return spawn(name, mm, cpu, Processes.pinnedTo(cpu, cpus.length), program);
    }

    /**
     * Creates a runnable task of {@code mm} that starts on {@code cpu} and may run on the CPUs of
     * {@code allowed} (its cpus_mask; null for all), which must hold {@code cpu}.
     */
    public Task spawn(String name, Mm mm, int cpu, java.util.BitSet allowed, Program program) {
        return processes.spawn(name, mm, cpus, cpu, allowed, program, rng);
    }

    /** Called when a task's program ended. */
    public void taskExited(Task t) {
        processes.exited();
    }

    /** Tasks spawned that have not exited. */
    public int liveTasks() {
        return processes.liveTasks();
    }

    // ------------------------------------------------------------------ running

    /** Runs until every task has exited and nothing is left to do, or {@code untilNs}. */
    public void run(long untilNs) {
        engine.run(untilNs, Long.MAX_VALUE);
    }

    /** Runs at most {@code steps} more steps. */
    public void runSteps(long steps) {
        engine.run(Long.MAX_VALUE, steps);
    }

    // ------------------------------------------------------------------ accessors

    public GuestConfig config() {
        return config;
    }

    public Profile profile() {
        return profile;
    }

    public Costs costs() {
        return costs;
    }

    public Knobs knobValues() {
        return knobs;
    }

    public GuestKnobs knobs() {
        return guestKnobs;
    }

    public Engine engine() {
        return engine;
    }

    /** Whether this guest runs at the fast fidelity level (see {@link dev.pvtlb.config.Fidelity}). */
    public boolean fast() {
        return fast;
    }

    public PhysMem mem() {
        return machine.mem;
    }

    public FrameAllocator allocator() {
        return machine.allocator;
    }

    public PageTables pageTables() {
        return machine.pageTables;
    }

    public VmStat vmstat() {
        return vmstat;
    }

    /** Virtual time charged to the parts of a remote flush (the cost breakdown of a run). */
    public CostLedger ledger() {
        return ledger;
    }

    public CpuTime cpuTime() {
        return cpuTime;
    }

    /** The hazard detectors' findings (always on). */
    public HazardLog hazards() {
        return hazards;
    }

    /** The detectors that write into {@link #hazards()}: TLB hits and unflushed zaps are checked here. */
    public HazardDetector hazardDetector() {
        return hazardDetector;
    }

    /** Speculative walks of lazy CPUs, or null when the scenario does not model them. */
    public Speculation speculation() {
        return speculation;
    }

    /** The readable step log, or null when steps are not being logged. */
    public StepLog stepLog() {
        return stepLog;
    }

    /** Starts logging every step (and trace event) into {@code log}. */
    public void stepLog(StepLog log) {
        this.stepLog = log;
        trace.subscribe(e -> log.add(e.time(), e.cpu(), e.describe()));
    }

    public TraceStream trace() {
        return trace;
    }

    public Topology topology() {
        return machine.topology;
    }

    public KernelCpu[] cpus() {
        return cpus;
    }

    public KernelCpu cpu(int id) {
        return cpus[id];
    }

    public Rcu rcu() {
        return rcu;
    }

    public Mm initMm() {
        return initMm;
    }

    public PvOps pvOps() {
        return pvOps.pvOps();
    }

    /** How this kernel interrupts its CPUs: call-function and reschedule IPIs, idle wake-ups. */
    IpiSender ipis() {
        return ipis;
    }

    /** The host model the vCPUs run on, or null on bare metal. */
    public VcpuHost vcpuHost() {
        return pvOps.vcpuHost();
    }

    /**
     * The shared zero page's frame (zeroPage=on), allocated at its first use; never freed. A read
     * fault on anonymous memory maps it read-only (do_anonymous_page()), and a write copies it.
     */
    public int zeroPfn() {
        return machine.zeroPfn();
    }

    /** The zero page's frame if one was allocated, else 0 (which no PTE maps). */
    public int zeroPfnIfUsed() {
        return machine.zeroPfnIfUsed();
    }

    /** Whether spinlock waiters halt and are kicked (pv_ops.lock patched: kvm_spinlock_init()). */
    public boolean pvSpinlock() {
        return pvOps.vcpuHost() != null && pvOps.vcpuHost().pvSpinlock();
    }

    /** The page locks of node (socket) {@code node} (pageLocks=on), one set per socket, made at first use. */
    PageLists pageLists(int node) {
        return machine.pageLists(node);
    }

    /**
     * Whether switch_mm maintains mm_cpumask. A backend that does not need the mask for
     * flushing may stop maintaining it (arm64), which is only safe while nothing relies on it.
     */
    public boolean mmCpumaskTracked() {
        return pvOps.mmCpumaskTracked();
    }

    public FlushChecker checker() {
        return checker;
    }

    public void checker(FlushChecker c) {
        this.checker = c;
    }

    @Override
    public void close() {
        machine.mem.close();
    }
}
