package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.cache.CacheHierarchy;
import dev.pvtlb.internal.cache.SetAssociativeCache;
import dev.pvtlb.internal.mem.FrameAllocator;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mem.PhysMem;
import dev.pvtlb.internal.mmu.HardwareWalker;
import dev.pvtlb.internal.mmu.PageTables;
import dev.pvtlb.internal.mmu.PagingStructureCache;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.internal.tlb.Tlb;
import dev.pvtlb.profile.Profile;
import dev.pvtlb.smp.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.LongConsumer;

/**
 * The machine a guest kernel boots on: physical memory with its frame allocator and page tables,
 * and the CPUs as the topology places them, each with its TLB (one STLB per core when SMT
 * siblings share it), paging-structure caches, L1 DTLB and data caches (each core's L1D and L2,
 * each socket's LLC), and the execution resources SMT siblings share. Also the kernel's frames
 * that live as long as the machine: the zero page and each node's page locks.
 */
final class Machine {
    final Topology topology;
    final PhysMem mem;
    final FrameAllocator allocator;
    final PageTables pageTables;
    final KernelCpu[] cpus;
    /** Every data-cache level and L1 DTLB of the machine, each once. */
    private final List<SetAssociativeCache> caches = new ArrayList<>();
    /** The zero page's frame, 0 until first used (zeroPage=on). */
    private int zeroPfn;
    /** Each socket's page locks (pageLocks=on), null until first used. */
    private PageLists[] pageLists;
    /** The data pages in an LRU-add vector or on an LRU list (pageLocks=on), by frame; every node's PageLists holds it. */
    private final LruPages lruPages = new LruPages();

    /** Builds memory and CPUs; {@code guest} is the kernel the CPUs belong to (its clock and records exist already). */
    Machine(Kernel guest, Topology topology, long memoryBytes, boolean sharedSmtTlb, Profile profile, Costs costs) {
        this.topology = topology;
        this.mem = new PhysMem(memoryBytes);
        this.allocator = new FrameAllocator(mem);
        this.pageTables = new PageTables(allocator);
        int n = topology.cpus();
        this.cpus = new KernelCpu[n];
        int entries = profile.integer("tlb.entries");
        int ways = profile.integer("tlb.ways");
        for (int i = 0; i < n; i++) {
            PagingStructureCache psc = new PagingStructureCache(profile.integer("psc.pml4e"),
                    profile.integer("psc.pdpte"), profile.integer("psc.pde"));
            cpus[i] = new KernelCpu(guest, i, topology.socketOf(i), topology.coreOf(i), topology.threadOf(i),
                    new Tlb(entries, ways), psc, new HardwareWalker(mem, allocator.frames(), psc, i), pageTables);
        }
        if (sharedSmtTlb && topology.threadsPerCore() > 1) {
            shareCoreTlbs(entries, ways);
        }
        wireCaches(costs);
        for (KernelCpu c : cpus) {
            // topology_sibling_cpumask without the CPU itself
            KernelCpu[] siblings = Arrays.stream(topology.otherThreadsOf(c.id))
                    .mapToObj(s -> cpus[s]).toArray(KernelCpu[]::new);
            c.stepTime().smt(SmtSharing.of(Arrays.stream(siblings).map(s -> (BooleanSupplier) s::executing).toArray(BooleanSupplier[]::new),
                    Arrays.stream(siblings).map(s -> (LongConsumer) s.stepTime()::rescale).toArray(LongConsumer[]::new),
                    costs.smtSharePermille));
        }
    }

    /** One STLB per core, shared by its SMT threads. */
    private void shareCoreTlbs(int entries, int ways) {
        for (int i = 0; i < cpus.length; i++) {
            if (topology.threadOf(i) != 0) {
                continue;
            }
            int[] sib = topology.siblingsOf(i);
            Tlb shared = new Tlb(entries, ways);
            for (int t = 0; t < sib.length; t++) {
                LocalTlb[] others = new LocalTlb[sib.length - 1];
                int k = 0;
                for (int s : sib) {
                    if (s != sib[t]) {
                        others[k++] = cpus[s].localTlb();
                    }
                }
                // Thread t uses hardware PCIDs t*8+1 .. t*8+6 so the threads' tags never collide.
                cpus[sib[t]].localTlb().share(shared, others, t * 8);
            }
        }
    }

    /**
     * Each core's L1D and L2 (its SMT threads load through the same ones), each socket's LLC
     * (cache.llc.kib_per_core for every core of the socket), each thread's L1 DTLB.
     */
    private void wireCaches(Costs c) {
        int cores = topology.sockets() * topology.coresPerSocket();
        SetAssociativeCache[] l1 = new SetAssociativeCache[cores];
        SetAssociativeCache[] l2 = new SetAssociativeCache[cores];
        SetAssociativeCache[] llc = new SetAssociativeCache[topology.sockets()];
        for (KernelCpu cpu : cpus) {
            int core = cpu.core;
            if (l1[core] == null) {
                l1[core] = tracked(CacheHierarchy.l1(c));
                l2[core] = tracked(CacheHierarchy.l2(c));
            }
            if (llc[cpu.socket] == null) {
                llc[cpu.socket] = tracked(CacheHierarchy.llc(c, topology.coresPerSocket()));
            }
            cpu.localTlb().caches(new CacheHierarchy(l1[core], l2[core], llc[cpu.socket], c), tracked(new SetAssociativeCache(c.dtlbEntries, c.dtlbWays)));
        }
    }

    /** {@code level}, listed so a new run empties each once, however many CPUs share it. */
    private SetAssociativeCache tracked(SetAssociativeCache level) {
        caches.add(level);
        return level;
    }

    /** A new run: every cache level empty. */
    void clearCaches() {
        for (SetAssociativeCache level : caches) {
            level.clear();
        }
    }

    /** A guest reset: memory as at boot (the zero page too), the page locks free. */
    void reset() {
        allocator.reset();
        zeroPfn = 0;
        lruPages.clear();
        if (pageLists != null) {
            for (PageLists p : pageLists) {
                if (p != null) {
                    p.reset();
                }
            }
        }
    }

    /** The shared zero page's frame, allocated at its first use; never freed. */
    int zeroPfn() {
        if (zeroPfn == 0) {
            zeroPfn = allocator.alloc(FrameState.DATA);
        }
        return zeroPfn;
    }

    /** The zero page's frame if one was allocated, else 0 (which no PTE maps). */
    int zeroPfnIfUsed() {
        return zeroPfn;
    }

    /** The page locks of node (socket) {@code node} (pageLocks=on), one set per socket, made at first use. */
    PageLists pageLists(int node) {
        if (pageLists == null) {
            pageLists = new PageLists[topology.sockets()];
        }
        PageLists p = pageLists[node];
        return p != null ? p : (pageLists[node] = new PageLists(node, lruPages));
    }
}
