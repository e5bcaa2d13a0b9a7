package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.ContendedLine;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.stats.CostPart;

/**
 * One CPU's side of the cache-coherence traffic the shootdown path makes: the per-CPU kernel
 * data other CPUs touch, a cache line each (see {@link ContendedLine}), and what this CPU pays
 * to load or store a shared line, booking the part beyond a cache hit as line transfers.
 */
public final class CpuLines {
    /** call_single_queue's head: llist_add() by senders, llist_del_all() by this CPU's handler. */
    final ContendedLine callSingleQueue = new ContendedLine(CostPart.LINES_PER_CPU);
    /** cpu_tlbstate_shared.is_lazy: written by this CPU, read by flush senders' should_flush_tlb(). */
    final ContendedLine tlbstateShared = new ContendedLine(CostPart.LINES_PER_CPU);
    /** This CPU's flush_tlb_info (a per-CPU variable since 5.x): written here, read by the targets. */
    final ContendedLine flushTlbInfo = new ContendedLine(CostPart.LINES_PER_CPU);
    /**
     * The idle task's thread_info->flags, which the idle loop's MWAIT monitors on x86 bare metal
     * (mwait_idle_with_hints()): a waker's store of TIF_NEED_RESCHED to it ends the MWAIT.
     */
    final ContendedLine idleFlags = new ContendedLine(CostPart.LINES_PER_CPU);

    private final Cpu cpu;
    private final Costs costs;
    private final CostLedger ledger;
    /**
     * The socket and core (numbered across sockets) whose caches this CPU's loads and stores go
     * through: its own place in the guest's topology, or, for a vCPU on a host with a topology of
     * its own (host.topology), the pCPU it runs on now.
     */
    private int socket;
    private int core;

    /** The lines of {@code cpu}, priced by {@code costs}, their transfers booked in {@code ledger}. */
    CpuLines(Cpu cpu, Costs costs, CostLedger ledger) {
        this.cpu = cpu;
        this.costs = costs;
        this.ledger = ledger;
        this.socket = cpu.socket();
        this.core = cpu.core();
    }

    /** The vCPU runs on the pCPU at {@code socket} and {@code core} (numbered across sockets). */
    public void runsOn(int socket, int core) {
        this.socket = socket;
        this.core = core;
    }

    /** A load of {@code line} by this CPU at {@code at}: its cost in ns, waiting for transfers in flight included. */
    public long read(ContendedLine line, long at) {
        return transfer(line.read(cpu.id(), socket, core, at, costs), line.group());
    }

    /** A store or atomic on {@code line} by this CPU at {@code at}: its cost in ns, waiting included. */
    public long write(ContendedLine line, long at) {
        return transfer(line.write(cpu.id(), socket, core, at, costs), line.group());
    }

    /**
     * A store to {@code line} whose hit is counted elsewhere (a per-page hold time): what it costs
     * beyond a hit, 0 when the line is here.
     */
    public long writeBeyondHit(ContendedLine line, long at) {
        return write(line, at) - costs.lineLocalNs;
    }

    /**
     * One cache line that only this CPU and the CPU of {@code other} touch, taken from that CPU's
     * cache (a csd between its sender and its target): a hit between SMT siblings, which share
     * the core's caches, else a same- or cross-socket transfer.
     */
    public long from(CpuLines other) {
        return transfer(ContendedLine.between(other.socket, other.core, socket, core, costs), CostPart.LINES_PER_CPU);
    }

    /** Books what a line access cost beyond a hit as LINE_TRANSFERS and under the line's {@code group}. */
    private long transfer(long cost, CostPart group) {
        long beyondHit = cost - costs.lineLocalNs;
        if (beyondHit > 0) {
            ledger.addNs(CostPart.LINE_TRANSFERS, beyondHit);
            ledger.addNs(group, beyondHit);
        }
        return cost;
    }

    /** A new run: every per-CPU line as never touched. */
    void reset() {
        callSingleQueue.reset();
        idleFlags.reset();
        tlbstateShared.reset();
        flushTlbInfo.reset();
    }
}
