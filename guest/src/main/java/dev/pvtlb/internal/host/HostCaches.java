package dev.pvtlb.internal.host;

import dev.pvtlb.internal.cache.CacheHierarchy;
import dev.pvtlb.internal.cache.SetAssociativeCache;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.smp.Topology;

/**
 * The physical machine's data caches under host.topology: each host core's L1D and L2 (its SMT
 * threads load through the same ones) and each host socket's LLC, sized by the profile as a
 * guest's are. A vCPU loads through the caches of the pCPU it runs from, whatever its VM, so a
 * vCPU descheduled for another VM's comes back to caches that VM has filled meanwhile, and a vCPU
 * moved to another core finds nothing of its own there. Without a host topology each guest keeps
 * caches of its own, per guest core, which no other VM touches.
 */
final class HostCaches {
    private final Costs costs;
    private final SetAssociativeCache[] l1;
    private final SetAssociativeCache[] l2;
    private final SetAssociativeCache[] llc;
    /** Per VM and host core, the hierarchy its vCPUs load through there (made at first use). */
    private final CacheHierarchy[][] hierarchies;

    HostCaches(Topology host, Costs costs, int vms) {
        this.costs = costs;
        int cores = host.sockets() * host.coresPerSocket();
        this.l1 = new SetAssociativeCache[cores];
        this.l2 = new SetAssociativeCache[cores];
        this.llc = new SetAssociativeCache[host.sockets()];
        for (int c = 0; c < cores; c++) {
            l1[c] = CacheHierarchy.l1(costs);
            l2[c] = CacheHierarchy.l2(costs);
        }
        for (int s = 0; s < llc.length; s++) {
            llc[s] = CacheHierarchy.llc(costs, host.coresPerSocket());
        }
        this.hierarchies = new CacheHierarchy[vms][cores];
    }

    /** What VM {@code vm}'s vCPUs load through on host core {@code core} of socket {@code socket}. */
    CacheHierarchy of(int vm, int core, int socket) {
        CacheHierarchy h = hierarchies[vm][core];
        if (h == null) {
            h = hierarchies[vm][core] = new CacheHierarchy(l1[core], l2[core], llc[socket], costs, vm);
        }
        return h;
    }
}
