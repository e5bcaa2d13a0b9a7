package dev.pvtlb.internal.host;

import dev.pvtlb.smp.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * The host scheduler's periodic load balancing between busy pCPUs ({@code host.balance=periodic},
 * with wake_affine() at wake-up: {@link IdleBalance#wakeAffine};
 * rebalance_domains() and load_balance() in kernel/sched/fair.c): every pCPU balances each of its
 * scheduling domains at the domain's interval, and a busy pCPU at that interval times the domain's
 * busy_factor. sd_init() (kernel/sched/topology.c) sets the interval to the domain's weight in ms
 * (min_interval = sd_weight) and busy_factor to 32 up to 5.9; 6e7499135db7 ("sched/fair: Reduce
 * busy load balance interval", 5.10) made it 16. The domains here are each host socket (MC) and,
 * on more than one socket, the whole host (NUMA); without a host topology, the whole host.
 *
 * <p>A balance pulls to the balancing pCPU the waiting vCPUs of the domain's busiest pCPU
 * (most runnable), least virtual runtime first and none cache-hot (off its CPU for less than
 * sched_migration_cost), until the two differ by at most one (load_balance()'s imbalance for
 * equal-weight tasks, halved between them). Without it, nothing moves a vCPU between two busy
 * pCPUs: vCPUs woken on a pCPU while no other is idle stay queued there however long its queue,
 * and a host running three 64-vCPU VMs on 64 pCPUs was found with 16 to 22 vCPUs runnable on one
 * pCPU while 20 others had one (ebizzy, kvm-boost's 3-VM run, seed 2).
 *
 * <p>ASSUMED: the pCPUs' balance times are spread evenly over the interval (Linux's are set by
 * each domain's last_balance and balance_interval, which doubles while a balance finds nothing to
 * move; that adaptation is not modelled).
 */
final class PeriodicBalance {
    /** The pCPUs of each domain a pCPU balances, innermost first, by pCPU. */
    private final Pcpu[][][] domains;
    /** Each of those domains' busy interval in ns, by pCPU. */
    private final long[][] intervals;

    PeriodicBalance(Pcpu[] pcpus, Topology host, int busyFactor) {
        int p = pcpus.length;
        domains = new Pcpu[p][][];
        intervals = new long[p][];
        for (Pcpu pc : pcpus) {
            List<Pcpu[]> own = new ArrayList<>();
            if (host != null && host.sockets() > 1) {
                List<Pcpu> socket = new ArrayList<>();
                for (Pcpu o : pcpus) {
                    if (o.socket == pc.socket) {
                        socket.add(o);
                    }
                }
                own.add(socket.toArray(Pcpu[]::new));
            }
            own.add(pcpus);
            domains[pc.id] = own.toArray(Pcpu[][]::new);
            intervals[pc.id] = new long[own.size()];
            for (int d = 0; d < own.size(); d++) {
                intervals[pc.id][d] = own.get(d).length * 1_000_000L * busyFactor;
            }
        }
    }

    /** How many domains pCPU {@code id} balances. */
    int domainsOf(int id) {
        return domains[id].length;
    }

    /** Domain {@code d}'s busy interval on pCPU {@code id}, ns. */
    long interval(int id, int d) {
        return intervals[id][d];
    }

    /** When pCPU {@code id} of {@code p} first balances domain {@code d}: spread evenly over the interval. */
    long firstAt(int id, int p, int d) {
        return intervals[id][d] * (id + 1) / p;
    }

    /**
     * load_balance() of domain {@code d} on busy pCPU {@code to} at {@code now}: the vCPUs to pull
     * from the domain's busiest pCPU, in order (none when the two differ by less than two runnable
     * vCPUs, or every waiting one is cache-hot).
     */
    List<HostVcpu> pulls(Pcpu to, int d, long now, long migrationCostNs) {
        Pcpu[] domain = domains[to.id][d];
        int mine = to.nrRunning();
        Pcpu busiest = IdleBalance.busiest(domain, indexOf(domain, to), mine + 1);
        List<HostVcpu> out = new ArrayList<>();
        if (busiest == null) {
            return out;
        }
        int move = (busiest.nrRunning() - mine) / 2;
        List<HostVcpu> waiting = new ArrayList<>();
        for (HostVcpu o : busiest.vcpus) {
            if (IdleBalance.waiting(busiest, o) && now - o.offCpuSince >= migrationCostNs) {
                waiting.add(o);
            }
        }
        waiting.sort((a, b) -> Long.compare(a.vruntime, b.vruntime));
        for (int i = 0; i < Math.min(move, waiting.size()); i++) {
            out.add(waiting.get(i));
        }
        return out;
    }

    private static int indexOf(Pcpu[] domain, Pcpu pc) {
        for (int i = 0; i < domain.length; i++) {
            if (domain[i] == pc) {
                return i;
            }
        }
        return 0;
    }
}
