package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.cache.CacheHierarchy;
import dev.pvtlb.internal.cache.SetAssociativeCache;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.pvops.GuestKnobs;
import dev.pvtlb.pvops.KnobRegistry;
import dev.pvtlb.model.ModelException;

import dev.pvtlb.flush.FlushChecker;
import dev.pvtlb.hazard.HazardLog;
import dev.pvtlb.hazard.StepLog;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.internal.mem.FrameAllocator;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.PagingStructureCache;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvOps;
import dev.pvtlb.pvops.PvOpsPatcher;
import dev.pvtlb.internal.sim.Chooser;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.internal.sim.Rng;
import dev.pvtlb.internal.sim.SeededChooser;
import dev.pvtlb.smp.IpiDelivery;
import dev.pvtlb.smp.IpiKind;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.smp.VcpuHost;
import dev.pvtlb.stats.CpuTime;
import dev.pvtlb.stats.TraceStream;
import dev.pvtlb.stats.VmStat;
import dev.pvtlb.internal.tlb.Tlb;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The kernel context of a booted guest: physical memory with its page tables, the CPUs with
 * their TLBs, init_mm, the engine that runs them, and the pv_ops the kernel was patched with.
 * The composition root of the model, and what kernel paths receive; a program sees it only
 * through its public facade, {@code dev.pvtlb.Guest}, and a backend through
 * {@code BackendContext} ({@link FacadeAccess#backendContext}).
 */
public final class Kernel implements AutoCloseable {
    /** How internal code crosses the facade (set once by {@code Guest}'s class initialisation). */
    private static volatile FacadeAccess facadeAccess;

    /** The {@code dev.pvtlb.Guest} in front of this kernel (the model does not name the API). */
    private final Object facade;
    private final GuestConfig config;
    private final Profile profile;
    private final Costs costs;
    private final Knobs knobs;
    private final GuestKnobs guestKnobs;
    private Rng rng;
    private final Engine engine;
    /** The fast fidelity level: some private step sequences run as one event (config.fidelity()). */
    private final boolean fast;
    private final PhysMem mem;
    private final FrameAllocator allocator;
    private final PageTables pageTables;
    private final VmStat vmstat = new VmStat();
    /** Idle CPUs wait in MWAIT on their thread flags (x86 bare metal): a wake-up needs no IPI ({@link #wakeIdle}). */
    private final boolean idlePolls;
    private final CpuTime cpuTime;
    private final CostLedger ledger = new CostLedger();
    private final TraceStream trace = new TraceStream();
    private final HazardLog hazards;
    private final HazardDetector hazardDetector;
    private final Speculation speculation;
    private StepLog stepLog;
    private final Topology topology;
    private final KernelCpu[] cpus;
    /** Every data-cache level and L1 DTLB of the machine, each once. */
    private final List<SetAssociativeCache> caches = new ArrayList<>();
    private final Rcu rcu;
    private Mm initMm;
    private final List<Mm> mms = new ArrayList<>();
    private final List<Task> tasks = new ArrayList<>();
    private PvOps pvOps;
    /** The object whose @PvOp methods the backend attached (Attachment.ops): its own state. */
    private Object backendOps;
    private IpiDelivery ipiDelivery = new BareMetalIpi();
    private VcpuHost vcpuHost;
    /** The zero page's frame, 0 until first used (zeroPage=on). */
    private int zeroPfn;
    /** Each socket's page locks (pageLocks=on), null until first used. */
    private PageLists[] pageLists;
    private boolean mmCpumaskTracked = true;
    private FlushChecker checker;
    private long nextCtxId = 1;
    private int liveTasks;
    /** The guest whose host and engine this one shares (a co-guest: another VM running its own workload), or null. */
    private final Kernel primary;
    /** Which VM of the host this guest is: 0 for the guest a run reports on, 1.. for its co-guests. */
    private final int vmIndex;

    private Kernel(GuestConfig config, Chooser chooser, Object facade, Kernel primary, int vmIndex) {
        this.facade = facade;
        this.primary = primary;
        this.vmIndex = vmIndex;
        this.config = config;
        this.profile = config.profile();
        this.costs = new Costs(profile);
        this.knobs = KnobRegistry.resolve(config.backend(), config.knobs(), config.workloadKnobs());
        this.guestKnobs = new GuestKnobs(knobs);
        this.idlePolls = !config.backend().virtualized() && "x86".equals(profile.arch());
        this.rng = new Rng(config.seed());
        this.fast = config.fidelity() == dev.pvtlb.config.Fidelity.FAST;
        this.engine = primary != null ? primary.engine
                : new Engine(chooser != null ? chooser : new SeededChooser(rng.forPurpose("chooser").nextLong()),
                        config.quantumNs());
        this.topology = config.topology();
        int n = topology.cpus();
        this.mem = new PhysMem(config.memoryBytes());
        this.allocator = new FrameAllocator(mem);
        this.pageTables = new PageTables(allocator);
        this.cpuTime = new CpuTime(n);
        this.cpus = new KernelCpu[n];
        int entries = profile.integer("tlb.entries");
        int ways = profile.integer("tlb.ways");
        for (int i = 0; i < n; i++) {
            PagingStructureCache psc = new PagingStructureCache(profile.integer("psc.pml4e"),
                    profile.integer("psc.pdpte"), profile.integer("psc.pde"));
            cpus[i] = new KernelCpu(this, i, topology.socketOf(i), topology.coreOf(i), topology.threadOf(i),
                    new Tlb(entries, ways), psc);
        }
        if (config.sharedSmtTlb() && topology.threadsPerCore() > 1) {
            for (int i = 0; i < n; i++) {
                if (topology.threadOf(i) != 0) {
                    continue;
                }
                int[] sib = topology.siblingsOf(i);
                Tlb shared = new Tlb(entries, ways);
                for (int t = 0; t < sib.length; t++) {
                    KernelCpu[] others = new KernelCpu[sib.length - 1];
                    int k = 0;
                    for (int s : sib) {
                        if (s != sib[t]) {
                            others[k++] = cpus[s];
                        }
                    }
                    // Thread t uses hardware PCIDs t*8+1 .. t*8+6 so the threads' tags never collide.
                    cpus[sib[t]].shareTlb(shared, others, t * 8);
                }
            }
        }
        wireCaches(topology);
        for (KernelCpu c : cpus) {
            c.smtSharing(SmtSharing.of(c, cpus, topology.siblingsOf(c.id), costs.smtSharePermille));
        }
        this.hazards = new HazardLog(trace);
        this.hazardDetector = new HazardDetector(this, hazards);
        for (KernelCpu c : cpus) {
            c.walker().observer(hazardDetector);
        }
        this.speculation = config.speculativeWalks() ? new Speculation(this) : null;
        this.rcu = new Rcu(this, n);
        access().bind(facade, this);
        start();
    }

    /** What boot does after building the machine: init_mm, idle loops, pv_ops patching. */
    private void start() {
        this.initMm = new Mm(0, nextCtxId++, pageTables.allocPgd(), cpus.length, true);
        for (SetAssociativeCache level : caches) {
            level.clear();
        }
        for (KernelCpu c : cpus) {
            c.reset(initMm);
            c.call(new IdleLoop(c));
            c.enqueue(0);
        }
        // Boot-time patching: the backend installs its host model, then pv_ops is generated.
        PvBackend backend = config.backend();
        Object attached = backend.attach(access().backendContext(this), knobs);
        Object ops = attached;
        if (attached instanceof Attachment a) {
            ops = a.ops();
            if (a.ipiDelivery() != null) {
                ipiDelivery = a.ipiDelivery();
            }
            vcpuHost = a.vcpuHost();
            mmCpumaskTracked = a.mmCpumaskTracked();
        }
        this.backendOps = ops;
        this.pvOps = PvOpsPatcher.patch(backend.name(), ops, config.tracePvOps() ? new PvOpsTracer(this, backend.name()) : null);
    }

    /** The object whose @PvOp methods implement pv_ops, as the backend attached it. */
    public Object backendOps() {
        return backendOps;
    }

    /**
     * Puts this guest back in the state {@link #boot} leaves it in, with {@code chooser}
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
        allocator.reset();
        zeroPfn = 0;
        vmstat.reset();
        cpuTime.reset();
        ledger.reset();
        trace.clear();
        hazards.clear();
        hazards.listener(null);
        stepLog = null;
        rcu.reset();
        if (pageLists != null) {
            for (PageLists p : pageLists) {
                if (p != null) {
                    p.reset();
                }
            }
        }
        mms.clear();
        tasks.clear();
        liveTasks = 0;
        nextCtxId = 1;
        ipiDelivery = new BareMetalIpi();
        vcpuHost = null;
        mmCpumaskTracked = true;
        checker = null;
        for (KernelCpu c : cpus) {
            c.resetHard();
        }
        start();
    }

    /**
     * Boots the kernel behind {@code facade}: memory, CPUs, init_mm, pv_ops patched to the
     * configured backend (which is handed this kernel as its context); every CPU starts in its idle loop.
     * {@code chooser} answers the choice points from the first one on (null: seeded random).
     */
    public static Kernel boot(GuestConfig config, Chooser chooser, Object facade) {
        return new Kernel(config, chooser, facade, null, 0);
    }

    /**
     * Boots co-guest {@code vm} of {@code primary}'s host behind {@code facade}: another VM on the
     * same host, with its own memory, CPUs and backend instance, whose vCPUs are the host's VM
     * {@code vm} (instead of CPU-bound threads) and whose steps run on the primary's engine.
     */
    public static Kernel bootCoGuest(GuestConfig config, Kernel primary, int vm, Object facade) {
        if (primary.primary != null) {
            throw new IllegalArgumentException("a co-guest's primary must be a primary guest");
        }
        if (vm < 1 || vm >= primary.config.vms()) {
            throw new IllegalArgumentException("co-guest " + vm + " of a host with " + primary.config.vms() + " VMs");
        }
        if (config.topology().cpus() != primary.cpus.length || config.vms() != primary.config.vms()
                || config.backend() != primary.config.backend()) {
            throw new IllegalArgumentException("a co-guest has its primary's vCPU count, VM count and backend");
        }
        return new Kernel(config, null, facade, primary, vm);
    }

    /** Boots co-guest {@code vm} of {@code primary} (see {@link #bootCoGuest(GuestConfig, Kernel, int, Object)}) and returns its kernel. */
    public static Kernel bootCoGuest(GuestConfig config, Kernel primary, int vm) {
        return of(access().bootCoGuest(config, primary, vm));
    }

    /** The guest whose host and engine this co-guest shares; null for a primary guest. */
    public Kernel primaryGuest() {
        return primary;
    }

    /** This guest's VM on its host: 0 for a primary guest, 1.. for a co-guest. */
    public int vmIndex() {
        return vmIndex;
    }

    /** Boots a guest and returns its kernel (the explorer, tests and benchmarks work on it). */
    public static Kernel boot(GuestConfig config, Chooser chooser) {
        return of(access().boot(config, chooser));
    }

    /** Boots a guest with seeded choices and returns its kernel. */
    public static Kernel boot(GuestConfig config) {
        return boot(config, null);
    }

    /** The kernel behind a guest ({@code guest} is a {@code dev.pvtlb.Guest}). */
    public static Kernel of(Object guest) {
        return access().kernel(guest);
    }

    /** Called once, by {@code Guest}'s class initialisation. */
    public static void facadeAccess(FacadeAccess access) {
        if (facadeAccess != null) {
            throw new IllegalStateException("facade access set twice");
        }
        facadeAccess = access;
    }

    private static FacadeAccess access() {
        FacadeAccess a = facadeAccess;
        if (a == null) {
            try { // initialising Guest registers it
                Class.forName("dev.pvtlb.Guest", true, Kernel.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            a = facadeAccess;
        }
        return a;
    }

    /** The public facade of this kernel, a {@code dev.pvtlb.Guest}. */
    public Object facade() {
        return facade;
    }

    // ------------------------------------------------------------------ building a workload

    /** mm_alloc() for a new process. */
    public Mm newMm() {
        Mm mm = new Mm(mms.size() + 1, nextCtxId++, pageTables.allocPgd(), cpus.length, false);
        mms.add(mm);
        return mm;
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
        java.util.BitSet only = new java.util.BitSet(cpus.length);
        if (cpu >= 0 && cpu < cpus.length) {
            only.set(cpu);
        }
        return spawn(name, mm, cpu, only, program);
    }

    /**
     * Creates a runnable task of {@code mm} that starts on {@code cpu} and may run on the CPUs of
     * {@code allowed} (its cpus_mask; null for all), which must hold {@code cpu}.
     */
    public Task spawn(String name, Mm mm, int cpu, java.util.BitSet allowed, Program program) {
        if (cpu < 0 || cpu >= cpus.length) {
            throw new ModelException("task " + name + " placed on cpu" + cpu + " but the guest has " + cpus.length + " CPUs");
        }
        if (allowed != null && !allowed.get(cpu)) {
            throw new ModelException("task " + name + " placed on cpu" + cpu + " outside its affinity " + allowed);
        }
        Task t = new Task(tasks.size(), name, mm, cpus[cpu], allowed, program, rng.forPurpose("task/" + tasks.size()));
        mm.get();
        tasks.add(t);
        cpus[cpu].runQueue.add(t);
        cpus[cpu].wake();
        liveTasks++;
        return t;
    }

    /** Called when a task's program ended. */
    public void taskExited(Task t) {
        liveTasks--;
    }

    public int liveTasks() {
        return liveTasks;
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

    /**
     * Each core's L1D and L2 (its SMT threads load through the same ones), each socket's LLC
     * (cache.llc.kib_per_core for every core of the socket), each thread's L1 DTLB.
     */
    private void wireCaches(Topology topology) {
        Costs c = costs;
        int cores = topology.sockets() * topology.coresPerSocket();
        SetAssociativeCache[] l1 = new SetAssociativeCache[cores];
        SetAssociativeCache[] l2 = new SetAssociativeCache[cores];
        SetAssociativeCache[] llc = new SetAssociativeCache[topology.sockets()];
        for (KernelCpu cpu : cpus) {
            int core = cpu.core;
            if (l1[core] == null) {
                l1[core] = cache(c.l1Lines, c.l1Ways);
                l2[core] = cache(c.l2Lines, c.l2Ways);
            }
            if (llc[cpu.socket] == null) {
                llc[cpu.socket] = cache(c.llcLinesPerCore * topology.coresPerSocket(), c.llcWays);
            }
            cpu.caches(new CacheHierarchy(l1[core], l2[core], llc[cpu.socket], c), cache(c.dtlbEntries, c.dtlbWays));
        }
    }

    /** A new cache level, listed so a new run empties each once, however many CPUs share it. */
    private SetAssociativeCache cache(int lines, int ways) {
        SetAssociativeCache level = new SetAssociativeCache(lines, ways);
        caches.add(level);
        return level;
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

    public Rng rng() {
        return rng;
    }

    public Engine engine() {
        return engine;
    }

    /** Whether this guest runs at the fast fidelity level (see {@link dev.pvtlb.config.Fidelity}). */
    public boolean fast() {
        return fast;
    }

    public PhysMem mem() {
        return mem;
    }

    public FrameAllocator allocator() {
        return allocator;
    }

    public PageTables pageTables() {
        return pageTables;
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
        return topology;
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

    public List<Mm> mms() {
        return Collections.unmodifiableList(mms);
    }

    public List<Task> tasks() {
        return Collections.unmodifiableList(tasks);
    }

    public PvOps pvOps() {
        return pvOps;
    }

    /** Sends through the backend's IPI delivery (APIC, PV send-IPI hypercall, event channel): what the sender pays. */
    private long send(KernelCpu from, KernelCpu[] targets, int count, IpiKind kind) {
        return ipiDelivery.send(from, targets, count, kind);
    }

    /**
     * Wakes {@code target}, halted in its idle loop, to run a task queued on it (resched_curr(),
     * ttwu_queue_wakelist()). On x86 bare metal the idle loop waits in MWAIT on its thread flags
     * with TIF_POLLING_NRFLAG set (mwait_idle_with_hints(), used by intel_idle and by acpi_idle's
     * FFH states), so set_nr_and_not_polling() / set_nr_if_polling() find it polling: the store of
     * TIF_NEED_RESCHED ends the MWAIT and no IPI is sent (the tracepoint
     * sched_wake_idle_without_ipi). A guest idles in HLT (KVM, Xen, Hyper-V and PVM expose no
     * MWAIT to it by default) and arm64 in WFI, neither polling: a reschedule IPI. As with HLT, the
     * model charges no C-state exit latency. Returns what the waker pays.
     */
    public long wakeIdle(KernelCpu from, KernelCpu target) {
        if (!idlePolls) {
            return sendReschedule(from, target);
        }
        long now = engine.now();
        long cost = from.writeLine(target.idleFlagsLine, now);
        target.schedulePollingWake(now + cost);
        vmstat.inc(dev.pvtlb.stats.Counter.WAKE_IDLE_WITHOUT_IPI);
        return cost;
    }

    /**
     * smp_send_reschedule() from {@code from} to {@code target}. On arrival the target takes the
     * interrupt (sysvec_reschedule_ipi) and, if halted, leaves HLT.
     */
    private long sendReschedule(KernelCpu from, KernelCpu target) {
        vmstat.inc(dev.pvtlb.stats.Counter.RESCHEDULE_IPIS);
        return send(from, new KernelCpu[] {target}, 1, IpiKind.RESCHEDULE);
    }

    /**
     * The IPIs of one smp_call_function_many_cond(). {@code single}: the call takes the
     * single-target path, arch_send_call_function_single_ipi(), not arch_send_call_function_ipi_mask():
     * since the concurrent-flush series (Nadav Amit, "smp: Run functions concurrently in
     * smp_call_function_many_cond()", 5.13) when one IPI goes out; before it, when the call has one
     * target (the fast path to smp_call_function_single()).
     */
    public long sendCallFunctionIpis(KernelCpu from, KernelCpu[] targets, int count, boolean single) {
        return send(from, targets, count, single ? IpiKind.CALL_FUNCTION_SINGLE : IpiKind.CALL_FUNCTION_MASK);
    }

    /** The host model the vCPUs run on, or null on bare metal. */
    public VcpuHost vcpuHost() {
        return vcpuHost;
    }

    /**
     * The shared zero page's frame (zeroPage=on), allocated at its first use; never freed. A read
     * fault on anonymous memory maps it read-only (do_anonymous_page()), and a write copies it.
     */
    public int zeroPfn() {
        if (zeroPfn == 0) {
            zeroPfn = allocator.alloc(FrameState.DATA);
        }
        return zeroPfn;
    }

    /** The zero page's frame if one was allocated, else 0 (which no PTE maps). */
    public int zeroPfnIfUsed() {
        return zeroPfn;
    }

    /** Whether spinlock waiters halt and are kicked (pv_ops.lock patched: kvm_spinlock_init()). */
    public boolean pvSpinlock() {
        return vcpuHost != null && vcpuHost.pvSpinlock();
    }

    /** The page locks of {@code cpu}'s node (pageLocks=on), one set per socket, made at first use. */
    PageLists pageLists(KernelCpu cpu) {
        if (pageLists == null) {
            pageLists = new PageLists[topology.sockets()];
        }
        PageLists p = pageLists[cpu.socket()];
        return p != null ? p : (pageLists[cpu.socket()] = new PageLists());
    }


    /**
     * Whether switch_mm maintains mm_cpumask. A backend that does not need the mask for
     * flushing may stop maintaining it (arm64), which is only safe while nothing relies on it.
     */
    public boolean mmCpumaskTracked() {
        return mmCpumaskTracked;
    }


    public FlushChecker checker() {
        return checker;
    }

    public void checker(FlushChecker c) {
        this.checker = c;
    }

    @Override
    public void close() {
        mem.close();
    }
}
