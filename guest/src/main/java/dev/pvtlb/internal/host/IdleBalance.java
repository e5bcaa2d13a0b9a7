package dev.pvtlb.internal.host;

import dev.pvtlb.stats.Counter;

/**
 * How the host's fair scheduler keeps pCPUs busy ({@code host.balance=idle}; kernel/sched/fair.c):
 * a vCPU thread woken while its pCPU is busy goes to an idle pCPU (select_idle_sibling()), and a
 * pCPU left with nothing to run pulls a waiting vCPU from the busiest pCPU (newidle_balance(),
 * can_migrate_task()). The host is taken as one LLC domain; there is no periodic balancing
 * between busy pCPUs. {@link HostModel} decides when, this class which pCPU and which vCPU.
 */
final class IdleBalance {

    private IdleBalance() {
    }

    /** A newly idle pCPU's pick: the vCPU to pull (or null), else when the first cache-hot waiting one cools (MAX_VALUE: none waits). */
    record Pull(HostVcpu vcpu, long coolAt) {
    }

    /**
     * select_idle_sibling() for a vCPU woken while its pCPU {@code from} is busy: the first pCPU
     * after it (wrapping, as select_idle_cpu()'s for_each_cpu_wrap() scans) that runs nothing and
     * has nothing waiting, or null.
     */
    static Pcpu idlePcpuAfter(Pcpu[] pcpus, Pcpu from) {
        for (int k = 1; k < pcpus.length; k++) {
            Pcpu o = pcpus[(from.id + k) % pcpus.length];
            if (o.current == null && o.nrRunning() == 0) {
                return o;
            }
        }
        return null;
    }

    /**
     * wake_affine() (kernel/sched/fair.c, WA_WEIGHT) for a vCPU woken while its pCPU {@code prev}
     * is busy, by a vCPU running on {@code waker}: the waker's pCPU when its load is not above the
     * previous one's by more than half the domain's imbalance_pct (117, sd_init(): 100 * load(waker)
     * <= 108 * load(prev)), load being the runnable vCPUs (equal weights); else {@code prev}. The
     * caller then looks for an idle pCPU from there (select_idle_sibling()).
     */
    static Pcpu wakeAffine(Pcpu prev, Pcpu waker) {
        if (waker == null || waker == prev) {
            return prev;
        }
        return 100L * waker.nrRunning() <= 108L * prev.nrRunning() ? waker : prev;
    }

    /**
     * newidle_balance() for idle pCPU {@code idle}: from the pCPU with the most runnable vCPUs (at
     * least two; the first after {@code idle} among equals), the waiting vCPU with the least
     * virtual runtime that is not cache-hot (off its CPU at least {@code migrationCostNs}, sysctl_sched_migration_cost:
     * kernel.sched.migration_cost.ns).
     * {@code guestOnly}: only the primary guest's vCPUs (the run is draining).
     */
    static Pull pick(Pcpu[] pcpus, Pcpu idle, long now, boolean guestOnly, long migrationCostNs) {
        Pcpu busiest = busiest(pcpus, idle.id, 1);
        if (busiest == null) {
            return new Pull(null, Long.MAX_VALUE);
        }
        HostVcpu pick = null;
        long coolAt = Long.MAX_VALUE;
        for (HostVcpu o : busiest.vcpus) {
            if (!waiting(busiest, o) || (guestOnly && o.vm != 0)) {
                continue;
            }
            if (now - o.offCpuSince < migrationCostNs) {
                coolAt = Math.min(coolAt, o.offCpuSince + migrationCostNs);
            } else if (pick == null || o.vruntime < pick.vruntime) {
                pick = o;
            }
        }
        return new Pull(pick, coolAt);
    }

    /**
     * find_busiest_queue(): of the pCPUs of {@code ring} after its {@code self}-th, in ring order,
     * the first with the most runnable vCPUs, more than {@code atLeast}; null when none has more.
     */
    static Pcpu busiest(Pcpu[] ring, int self, int atLeast) {
        Pcpu busiest = null;
        int most = atLeast;
        for (int k = 1; k < ring.length; k++) {
            Pcpu o = ring[(self + k) % ring.length];
            int n = o.nrRunning();
            if (n > most) {
                most = n;
                busiest = o;
            }
        }
        return busiest;
    }

    /** A vCPU a balance may take from {@code p}: queued there, runnable, not the one running. */
    static boolean waiting(Pcpu p, HostVcpu v) {
        return v != p.current && v.state == VcpuState.RUNNABLE;
    }

    /**
     * Moves waiting vCPU {@code v} to {@code to}'s run queue keeping its place relative to the
     * queues' min_vruntime (migrate_task_rq_fair(): its vruntime less the old queue's
     * cfs_rq->min_vruntime, plus the new one's, which an idle queue keeps from its last runner).
     */
    static void migrate(HostVcpu v, Pcpu to) {
        Pcpu from = v.pcpu;
        v.vruntime = v.vruntime - from.minVruntime() + to.minVruntime();
        from.vcpus.remove(v);
        if (from.nextBuddy == v) {
            from.nextBuddy = null;
        }
        from.updateMinVruntime();
        to.vcpus.add(v);
        v.pcpu = to;
        to.seat(v);
        if (v.cpu != null) {
            v.cpu.kernel().vmstat().inc(Counter.VCPU_MIGRATIONS);
        }
    }
}
