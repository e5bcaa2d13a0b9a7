package dev.pvtlb.internal.profile;

import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.model.ChoicePoint;
import dev.pvtlb.profile.Profile;

/**
 * A profile's figures unpacked into fields for the model's hot paths. Per-access figures are
 * in picoseconds (a TLB hit costs about a nanosecond, too coarse for a nanosecond clock when
 * summed over a batch); everything else is in nanoseconds.
 */
public final class Costs {
    public final long accessPs;
    public final long walkLevelPs;
    /** A load served by the L2, the LLC, memory; an L1 dTLB miss that hits the STLB (extra). */
    public final long l2Ps;
    public final long llcPs;
    public final long memPs;
    public final long stlbHitPs;
    /** Cache geometry, in 64-byte lines; the LLC's per core of its socket. */
    public final int l1Lines;
    public final int l1Ways;
    public final int l2Lines;
    public final int l2Ways;
    public final int llcLinesPerCore;
    public final int llcWays;
    public final int dtlbEntries;
    public final int dtlbWays;
    public final long invlpgNs;
    public final int flushCeilingPages;
    public final long fullFlushNs;
    public final long cr3WriteNs;
    public final long ipiSendNs;
    public final long ipiLatencyMinNs;
    public final long ipiLatencyMaxNs;
    public final int ipiLatencyPoints;
    public final long irqEntryExitNs;
    public final long csdRunNs;
    public final long lineLocalNs;
    public final long lineSameSocketNs;
    public final long lineCrossSocketNs;
    /** line.fill_buffers: independent loads one core keeps in flight (at least 1). */
    public final int lineFillBuffers;
    /** smt.share.factor in thousandths (at least 1000: a sibling never speeds a step up). */
    public final long smtSharePermille;
    public final long syscallNs;
    public final long faultNs;
    /** fault.dax.ns: a write fault on a DAX file mapping, through the filesystem's fault handler. */
    public final FigureOnUse faultDax;
    public final long pteOpNs;
    public final long vmaOpNs;
    /** shmem.release.ns: the last fput() of a MAP_SHARED|MAP_ANONYMOUS mapping's shmem file. */
    public final FigureOnUse shmemRelease;
    /** pgtable.free.ns, rcu.call.ns, rcu.callback.ns: freeing page tables, at once or after a grace period. */
    public final FigureOnUse pgtableFree;
    public final FigureOnUse rcuCall;
    public final FigureOnUse rcuCallback;
    public final int pcpBatch;
    public final int pcpHigh;
    public final int releaseBatch;
    public final FigureOnUse zoneLockPage;
    public final FigureOnUse lruLockPage;
    public final long contextSwitchNs;
    public final long idleEnterNs;
    public final long vmexitNs;
    public final long hypercallNs;
    public final long hostSliceNs;
    public final long pleWindowNs;
    public final int pleWindowGrow;
    public final long haltPollNs;
    /** halt_poll_ns_grow_start, halt_poll_ns_grow, halt_poll_ns_shrink: how a vCPU's window adapts. */
    public final long haltPollGrowStartNs;
    public final int haltPollGrow;
    public final int haltPollShrink;
    /** cpu.pause.ns: one turn of a spin-wait loop (PAUSE). */
    public final long pauseNs;
    /** Kernel tunables (kernel.*): CFS's latency and granularities, the migration cost, the cpumask trim period, an NMI's longest stall. */
    public final long cfsLatencyNs;
    public final long cfsMinGranularityNs;
    public final long cfsWakeupGranularityNs;
    public final long migrationCostNs;
    public final long cpumaskTrimPeriodNs;
    public final long nmiStallNs;
    /** Granularities of the model (model.*): a spin step, the speculation tick, the store-drain bound, the sleep poll. */
    public final long spinStepNs;
    public final long speculationTickNs;
    public final long storeDrainMaxNs;
    public final long sleepPollNs;

    public Costs(Profile p) {
        accessPs = p.ps("access.ns");
        walkLevelPs = p.ps("walk.level.ns");
        l2Ps = Math.max(accessPs, p.ps("cache.l2.ns"));
        llcPs = Math.max(l2Ps, p.ps("cache.llc.ns"));
        memPs = Math.max(llcPs, p.ps("mem.ns"));
        stlbHitPs = p.ps("stlb.hit.ns");
        l1Lines = lines(p, "cache.l1.kib");
        l1Ways = Math.max(1, p.integer("cache.l1.ways"));
        l2Lines = lines(p, "cache.l2.kib");
        l2Ways = Math.max(1, p.integer("cache.l2.ways"));
        llcLinesPerCore = lines(p, "cache.llc.kib_per_core");
        llcWays = Math.max(1, p.integer("cache.llc.ways"));
        dtlbEntries = Math.max(1, p.integer("dtlb.entries"));
        dtlbWays = Math.max(1, p.integer("dtlb.ways"));
        invlpgNs = p.ns("invlpg.ns");
        flushCeilingPages = p.integer("flush.ceiling.pages");
        fullFlushNs = p.ns("flush.full.ns");
        cr3WriteNs = p.ns("cr3.write.ns");
        ipiSendNs = p.ns("ipi.send.ns");
        ipiLatencyMinNs = p.ns("ipi.latency.min.ns");
        ipiLatencyMaxNs = Math.max(ipiLatencyMinNs, p.ns("ipi.latency.max.ns"));
        ipiLatencyPoints = Math.max(1, p.integer("ipi.latency.points"));
        irqEntryExitNs = p.ns("irq.entry_exit.ns");
        csdRunNs = p.ns("csd.run.ns");
        lineLocalNs = p.ns("line.local.ns");
        lineSameSocketNs = p.ns("line.same_socket.ns");
        lineCrossSocketNs = p.ns("line.cross_socket.ns");
        lineFillBuffers = (int) Math.max(1, Math.round(p.get("line.fill_buffers")));
        smtSharePermille = Math.max(1000, Math.round(p.get("smt.share.factor") * 1000.0));
        syscallNs = p.ns("syscall.ns");
        faultNs = p.ns("fault.ns");
        faultDax = new FigureOnUse(p, "fault.dax.ns");
        pteOpNs = p.ns("pte.op.ns");
        vmaOpNs = p.ns("vma.op.ns");
        shmemRelease = new FigureOnUse(p, "shmem.release.ns");
        pgtableFree = new FigureOnUse(p, "pgtable.free.ns");
        rcuCall = new FigureOnUse(p, "rcu.call.ns");
        rcuCallback = new FigureOnUse(p, "rcu.callback.ns");
        pcpBatch = Math.max(1, p.integer("page.pcp.batch"));
        pcpHigh = Math.max(pcpBatch, p.integer("page.pcp.high"));
        releaseBatch = Math.max(1, p.integer("page.release.batch"));
        zoneLockPage = new FigureOnUse(p, "page.zone_lock.page.ns");
        lruLockPage = new FigureOnUse(p, "page.lru_lock.page.ns");
        contextSwitchNs = p.ns("context_switch.ns");
        idleEnterNs = p.ns("idle.enter.ns");
        vmexitNs = p.ns("vmexit.ns");
        hypercallNs = p.ns("hypercall.ns");
        hostSliceNs = Math.max(1, p.ns("host.slice.ns"));
        pleWindowNs = Math.max(1, p.ns("host.ple_window.ns"));
        pleWindowGrow = Math.max(1, p.integer("host.ple_window.grow"));
        haltPollNs = p.ns("host.halt_poll.ns");
        haltPollGrowStartNs = p.ns("host.halt_poll.grow_start.ns");
        haltPollGrow = Math.max(0, p.integer("host.halt_poll.grow"));
        haltPollShrink = Math.max(0, p.integer("host.halt_poll.shrink"));
        pauseNs = Math.max(1, p.ns("cpu.pause.ns"));
        cfsLatencyNs = p.ns("kernel.cfs.latency.ns");
        cfsMinGranularityNs = p.ns("kernel.cfs.min_granularity.ns");
        cfsWakeupGranularityNs = p.ns("kernel.cfs.wakeup_granularity.ns");
        migrationCostNs = p.ns("kernel.sched.migration_cost.ns");
        cpumaskTrimPeriodNs = Math.max(1, p.ns("kernel.cpumask_trim.period.ns"));
        nmiStallNs = p.ns("kernel.perf.nmi_max.ns");
        spinStepNs = Math.max(1, p.ns("model.spin.step.ns"));
        speculationTickNs = Math.max(1, p.ns("model.speculation.tick.ns"));
        storeDrainMaxNs = p.ns("model.store_drain.max.ns");
        sleepPollNs = Math.max(1, p.ns("model.sleep_poll.ns"));
    }

    private static int lines(Profile p, String kibKey) {
        return Math.max(1, p.integer(kibKey) * 16);
    }

    /**
     * The time to move {@code lines} cache lines that each miss with latency {@code latencyPs}, as
     * a streaming copy does: {@code line.fill_buffers} misses in flight at a time, a single
     * thread's bandwidth bounded by its outstanding L1D misses (John D. McCalpin, "Single-Threaded
     * memory performance for dual socket Xeon E5-* systems"); in ns, rounded up.
     */
    public long streamNs(long lines, long latencyPs) {
        return (lines * latencyPs / lineFillBuffers + 999) / 1000;
    }

    /**
     * An IPI's flight from the sender's ICR write to the target's interrupt: a value in
     * ipi.latency.min..max, chosen at {@code point} (the explorer's choice; the seed's otherwise).
     */
    public long ipiLatencyNs(Engine e, ChoicePoint point) {
        return e.chooseInRange(point, ipiLatencyMinNs, ipiLatencyMaxNs, ipiLatencyPoints);
    }
}
