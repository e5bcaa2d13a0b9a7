package dev.pvtlb.internal.workload;

import dev.pvtlb.smp.Topology;

/** Where a benchmark's threads are pinned, as numactl/taskset would place them. */
public final class Pinning {
    private Pinning() {}

    /**
     * Thread {@code t} of {@code threads}: while all threads fit on socket 0 (its cores and
     * their SMT siblings), all go there (numactl --cpunodebind=0); beyond that they spread over
     * every CPU in Linux's numbering.
     */
    public static int socketFirst(Topology topo, int t, int threads) {
        int perSocket = topo.coresPerSocket() * topo.threadsPerCore();
        if (threads > perSocket || topo.sockets() == 1) {
            return t % topo.cpus();
        }
        int seen = 0;
        for (int cpu = 0; cpu < topo.cpus(); cpu++) {
            if (topo.socketOf(cpu) == 0 && seen++ == t) {
                return cpu;
            }
        }
        return t % topo.cpus();
    }
}
