package dev.pvtlb;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.pvops.GuestKnobs;
import dev.pvtlb.hazard.HazardLog;
import dev.pvtlb.hazard.StepLog;
import dev.pvtlb.internal.kernel.FacadeAccess;
import dev.pvtlb.internal.host.GuestBackendContext;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;
import dev.pvtlb.internal.sim.Chooser;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.PvOps;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.CpuTime;
import dev.pvtlb.stats.TraceStream;
import dev.pvtlb.stats.VmStat;
import java.util.List;

/**
 * A booted guest, as a program embedding pvtlb sees it: boot it, run it, observe it, close it.
 * The kernel model behind it (memory, page tables, tasks, the engine) is internal; a pv_ops
 * backend receives this facade at {@link dev.pvtlb.pvops.PvBackend#attach}.
 */
public final class Guest implements AutoCloseable {
    static {
        KernelBoot.facadeAccess(new FacadeAccess() {
            @Override
            public void bind(Object guest, Kernel kernel) {
                ((Guest) guest).kernel = kernel;
            }

            @Override
            public Kernel kernel(Object guest) {
                return ((Guest) guest).kernel;
            }

            @Override
            public Guest boot(GuestConfig config, Chooser chooser) {
                return new Guest(config, chooser);
            }

            @Override
            public Guest bootCoGuest(GuestConfig config, Kernel primary, int vm) {
                return new Guest(config, primary, vm);
            }

            @Override
            public BackendContext backendContext(Kernel kernel) {
                return new GuestBackendContext(kernel);
            }
        });
    }

    /** Set while booting, before the backend is attached (it may read the facade). */
    private Kernel kernel;

    private Guest(GuestConfig config, Chooser chooser) {
        KernelBoot.boot(config, chooser, this);
    }

    private Guest(GuestConfig config, Kernel primary, int vm) {
        KernelBoot.bootCoGuest(config, primary, vm, this);
    }

    /** Boots a guest: memory, CPUs, init_mm, pv_ops patched to the configured backend; every CPU idle. */
    public static Guest boot(GuestConfig config) {
        return new Guest(config, null);
    }

    /** Runs until every task has exited and nothing is left to do, or until virtual time {@code untilNs}. */
    public void run(long untilNs) {
        kernel.run(untilNs);
    }

    /** Runs at most {@code steps} more steps. */
    public void runSteps(long steps) {
        kernel.runSteps(steps);
    }

    /** Virtual time now, in ns since boot. */
    public long nowNs() {
        return kernel.engine().now();
    }

    /** Tasks that have not exited yet. */
    public int liveTasks() {
        return kernel.liveTasks();
    }

    public GuestConfig config() {
        return kernel.config();
    }

    /** The guest kernel's own knobs (lazy, tableFree, ...). */
    public GuestKnobs knobs() {
        return kernel.knobs();
    }

    /** Every knob's value at boot, the backend's included. */
    public Knobs knobValues() {
        return kernel.knobValues();
    }

    public Topology topology() {
        return kernel.topology();
    }

    /** The (v)CPUs, by id. */
    public List<Cpu> cpus() {
        return List.<Cpu>of(kernel.cpus());
    }

    public Cpu cpu(int id) {
        return kernel.cpu(id);
    }

    /** The patched pv_ops table. */
    public PvOps pvOps() {
        return kernel.pvOps();
    }

    /**
     * The object the backend attached as its pv_ops (its {@code @PvOp} methods' owner, with
     * whatever state it keeps), as {@code type}; refused with the class it is when it is not one.
     */
    public <T> T backend(Class<T> type) {
        Object ops = kernel.backendOps();
        if (!type.isInstance(ops)) {
            throw new IllegalArgumentException("backend " + kernel.pvOps().name() + " attached a " + ops.getClass().getName()
                    + ", not a " + type.getName());
        }
        return type.cast(ops);
    }

    public VmStat vmstat() {
        return kernel.vmstat();
    }

    public CpuTime cpuTime() {
        return kernel.cpuTime();
    }

    public HazardLog hazards() {
        return kernel.hazards();
    }

    /** The readable step log, when one is kept (replays). */
    public StepLog stepLog() {
        return kernel.stepLog();
    }

    public TraceStream trace() {
        return kernel.trace();
    }

    /** Frees the guest's memory. */
    @Override
    public void close() {
        kernel.close();
    }
}
