package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.Counter;

/**
 * The guest scheduler's task placement with {@code sched.balance=idle}: where a waking task runs
 * and what a CPU about to go idle pulls, as CFS/EEVDF's fair class does it (kernel/sched/fair.c).
 * A task moves only between CPUs of one last-level cache (the socket here), as the two paths
 * modelled search only the LLC domain; periodic and NUMA balancing are not modelled.
 *
 * <p>What a move does to TLB maintenance is not charged here: it follows from the model. The task's
 * mm is switched in on its new CPU (switch_mm_irqs_off sets that CPU in mm_cpumask), and the CPU it
 * left keeps the mm loaded in lazy TLB mode when it goes idle, so flushes of the mm now reach both.
 */
final class GuestBalance {
    private GuestBalance() {}

    /**
     * select_idle_sibling(): the task's previous CPU if it is idle; else the first idle CPU of the
     * LLC domain whose whole core is idle (select_idle_core), then any idle CPU of it
     * (select_idle_cpu), scanning from the CPU after the previous one; else the previous CPU. Only
     * CPUs of the task's affinity are candidates (select_idle_cpu() scans cpus_ptr's part of the LLC).
     */
    static KernelCpu selectIdleSibling(Kernel g, Task t, KernelCpu prev) {
        if (idle(prev)) {
            return prev;
        }
        KernelCpu[] cpus = g.cpus();
        Topology topo = g.topology();
        int socket = topo.socketOf(prev.id);
        KernelCpu anyIdle = null;
        for (int i = 1; i < cpus.length; i++) {
            KernelCpu c = cpus[(prev.id + i) % cpus.length];
            if (topo.socketOf(c.id) != socket || !t.allowedOn(c) || !idle(c)) {
                continue;
            }
            if (coreIdle(g, c)) {
                return c;
            }
            if (anyIdle == null) {
                anyIdle = c;
            }
        }
        return anyIdle != null ? anyIdle : prev;
    }

    /**
     * newidle_balance() on {@code cpu}, whose run queue is empty: from the busiest CPU of its LLC
     * domain (the most tasks queued behind the running one), the first queued task that is not
     * cache-hot (can_migrate_task(): allowed here by its affinity, and off its CPU at least
     * sched_migration_cost) moves here. Returns
     * whether a task was pulled.
     */
    static boolean pullToIdle(Kernel g, KernelCpu cpu) {
        KernelCpu[] cpus = g.cpus();
        Topology topo = g.topology();
        int socket = topo.socketOf(cpu.id);
        KernelCpu busiest = null;
        for (KernelCpu c : cpus) {
            if (c != cpu && topo.socketOf(c.id) == socket && c.rq.current() != null && !c.rq.queue.isEmpty()
                    && (busiest == null || c.rq.queue.size() > busiest.rq.queue.size())) {
                busiest = c;
            }
        }
        if (busiest == null) {
            return false;
        }
        long now = g.engine().now();
        for (Task t : busiest.rq.queue) {
            if (t.allowedOn(cpu) && now - t.offCpuSince >= g.costs().migrationCostNs) {
                busiest.rq.queue.remove(t);
                t.moveTo(cpu);
                cpu.rq.queue.add(t);
                g.vmstat().inc(Counter.MIGRATIONS);
                return true;
            }
        }
        return false;
    }

    /** Nothing running and nothing queued (idle_cpu()). */
    static boolean idle(KernelCpu c) {
        return c.online() && c.rq.current() == null && c.rq.queue.isEmpty();
    }

    private static boolean coreIdle(Kernel g, KernelCpu c) {
        for (int s : g.topology().siblingsOf(c.id)) {
            if (!idle(g.cpus()[s])) {
                return false;
            }
        }
        return true;
    }
}
