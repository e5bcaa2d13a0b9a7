package dev.pvtlb.internal.mm;

import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.stats.CostPart;
import java.util.BitSet;

/**
 * One cache line of kernel state that several CPUs touch, under a MESI-style protocol: a write
 * leaves the line Modified in the writer's cache; a read by another CPU copies it there and both
 * hold it Shared; a write by a CPU that is not the sole holder fetches the line and invalidates
 * every other copy. A hit in the CPU's own cache costs {@code line.local.ns}; a transfer costs
 * {@code line.same_socket.ns} when the line comes from (or, for a write, must be invalidated in)
 * the same socket only, {@code line.cross_socket.ns} otherwise. SMT siblings share the core's
 * L1D and L2 (Intel 64 and IA-32 Optimization Reference Manual, "Intel Hyper-Threading
 * Technology": the logical processors share the caches), so a line held by a sibling is a local
 * hit.
 *
 * <p>Transfers of one line are serialised: the line is in flight to one CPU at a time, so a
 * request made while another transfer is under way waits for it ({@code busyUntil}). That is
 * what makes a line written by N CPUs at once cost the last of them N transfers, the contention
 * of {@code mm_cpumask} and {@code tlb_gen} in the lazy-TLB and concurrent-flush threads.
 */
public final class ContendedLine {
    /** The part of the cost breakdown its transfers are filed under (the data it holds). */
    private final CostPart group;
    private int writer = -1;
    private int writerSocket;
    private int writerCore;
    /** CPUs holding a Shared copy (none while a writer holds it Modified). */
    private final BitSet sharers = new BitSet();
    /** Cores (numbered across sockets, as Topology.coreOf) and sockets of the sharers, to price a transfer without a scan. */
    private final BitSet sharerCores = new BitSet();
    private final BitSet sharerSockets = new BitSet();
    private long busyUntil;

    /** A line holding data of {@code group}, one of the {@code line_transfers.*} parts of {@link CostPart}. */
    public ContendedLine(CostPart group) {
        this.group = group;
    }

    /** The part of the cost breakdown this line's transfers go under. */
    public CostPart group() {
        return group;
    }

    /** A load of the line by {@code cpu} at {@code now}; returns its cost in ns, waiting included. */
    public long read(int cpu, int socket, int core, long now, Costs c) {
        if (writer == cpu || sharers.get(cpu)) {
            return c.lineLocalNs;
        }
        long transfer;
        if (writer >= 0) {
            transfer = between(writerSocket, writerCore, socket, core, c);
            share(writer, writerSocket, writerCore);
            writer = -1;
        } else if (sharers.isEmpty()) {
            transfer = c.lineLocalNs; // first touch: from memory into this cache, nobody to contend with
        } else {
            transfer = sharerCores.get(core) ? c.lineLocalNs
                    : sharerSockets.get(socket) ? c.lineSameSocketNs : c.lineCrossSocketNs;
        }
        share(cpu, socket, core);
        return queue(now, transfer, c);
    }

    /** A store or atomic read-modify-write by {@code cpu} at {@code now}; returns its cost in ns, waiting included. */
    public long write(int cpu, int socket, int core, long now, Costs c) {
        if (writer == cpu) {
            return c.lineLocalNs;
        }
        long transfer;
        if (writer >= 0) {
            transfer = between(writerSocket, writerCore, socket, core, c);
        } else if (sharers.isEmpty() || (sharers.cardinality() == 1 && sharers.get(cpu))) {
            transfer = c.lineLocalNs; // first touch, or the only copy is already here
        } else {
            // Invalidate every other copy: as dear as the farthest holder.
            boolean remoteSocket = sharerSockets.cardinality() > 1 || !sharerSockets.get(socket);
            boolean otherCore = remoteSocket || sharerCores.cardinality() > 1 || !sharerCores.get(core);
            transfer = remoteSocket ? c.lineCrossSocketNs : otherCore ? c.lineSameSocketNs : c.lineLocalNs;
        }
        sharers.clear();
        sharerCores.clear();
        sharerSockets.clear();
        writer = cpu;
        writerSocket = socket;
        writerCore = core;
        return queue(now, transfer, c);
    }

    /**
     * Moving a line from the cache of one CPU to another's: a hit within a core (SMT siblings
     * share its caches; cores are numbered across sockets), else a same- or cross-socket transfer.
     */
    public static long between(int socketA, int coreA, int socketB, int coreB, Costs c) {
        return coreA == coreB ? c.lineLocalNs : socketA == socketB ? c.lineSameSocketNs : c.lineCrossSocketNs;
    }

    /** A hit costs the same at any time; a transfer starts when the one in flight has ended. */
    private long queue(long now, long transfer, Costs c) {
        if (transfer <= c.lineLocalNs) {
            return transfer;
        }
        long start = Math.max(now, busyUntil);
        busyUntil = start + transfer;
        return busyUntil - now;
    }

    private void share(int cpu, int socket, int core) {
        sharers.set(cpu);
        sharerCores.set(core);
        sharerSockets.set(socket);
    }

    /** As new: nobody holds the line, nothing in flight (a guest reset). */
    public void reset() {
        writer = -1;
        sharers.clear();
        sharerCores.clear();
        sharerSockets.clear();
        busyUntil = 0;
    }
}
