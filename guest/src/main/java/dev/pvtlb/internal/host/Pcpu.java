package dev.pvtlb.internal.host;

import dev.pvtlb.internal.sim.Timer;
import java.util.ArrayList;
import java.util.List;

/**
 * A physical CPU of the host and its run queue (a cfs_rq of vCPU threads): the vCPUs placed on
 * it, the one it runs now, and the next buddy a directed yield left (set_next_buddy()).
 */
public final class Pcpu {
    public final int id;
    final List<HostVcpu> vcpus = new ArrayList<>();
    HostVcpu current;
    /** When {@link #current} last had its virtual runtime brought up to date (update_curr()). */
    long accountedAt;
    /**
     * cfs_rq->min_vruntime: the least virtual runtime of the current and the waiting vCPUs, never
     * moving back (update_min_vruntime(): "ensure we never gain time by being placed backwards"),
     * and kept while the queue is empty. A vCPU moving between pCPUs keeps its place relative to
     * it, and a waking one is placed against it, so no vCPU can come back far behind the others.
     */
    private long minVruntime;
    /** cfs_rq->next: the vCPU a yield_to() asked to run next here, or null. */
    HostVcpu nextBuddy;
    /** The reschedule IPI on its way here ({@code HostModel.reschedRemote}), or null. */
    Timer reschedIpi;
    /** The armed slice timer, or null (none armed); cancelled when the pCPU switches vCPU before it fires. */
    Timer sliceTimer;
    /** When the armed slice started and ends, and how many vCPUs were runnable when its length was set. */
    long sliceArmedAt;
    long sliceEndsAt;
    int sliceNr;
    /** host.balance=idle: when this idle pCPU looks for a waiting vCPU again (the latest retry armed). */
    long balanceRetryAt = Long.MIN_VALUE;

    /** host.scheduler=cfs: its rules for a buddy; null under EEVDF. */
    private final CfsWakeup cfs;
    /** Its socket and its core (numbered across sockets) under host.topology; -1 without one. */
    final int socket;
    final int core;
    /** The other threads of its core under an SMT host.topology (set once every pCPU exists); empty otherwise. */
    Pcpu[] siblings = new Pcpu[0];
    /** The host's caches under host.topology (this pCPU's are its core's and socket's); null without one. */
    private final HostCaches caches;

    /** A pCPU of a host without a topology of its own. */
    Pcpu(int id, CfsWakeup cfs) {
        this(id, cfs, null, null);
    }

    /** pCPU {@code id} of a host laid out as {@code host}, its vCPUs loading through their guests' own caches. */
    Pcpu(int id, CfsWakeup cfs, dev.pvtlb.smp.Topology host) {
        this(id, cfs, host, null);
    }

    /**
     * pCPU {@code id} of a host laid out as {@code host} (null: none; vCPUs price lines at their
     * guest places and load through their guest's caches), whose caches are {@code caches} (null:
     * the guests' own).
     */
    Pcpu(int id, CfsWakeup cfs, dev.pvtlb.smp.Topology host, HostCaches caches) {
        this.id = id;
        this.cfs = cfs;
        this.caches = host == null ? null : caches;
        this.socket = host == null ? -1 : host.socketOf(id);
        this.core = host == null ? -1 : host.coreOf(id);
    }

    /**
     * {@code v} now runs from this pCPU's run queue: under host.topology, the cache lines its guest
     * CPU touches come and go from this pCPU's caches, and its loads go through them.
     */
    void seat(HostVcpu v) {
        if (socket >= 0 && v.cpu != null) {
            v.cpu.lines.runsOn(socket, core);
            if (caches != null) {
                v.cpu.localTlb().loadsThrough(caches.of(v.vm, core, socket));
            }
        }
    }

    /** update_curr(): charges the current vCPU's time since the last update to its virtual runtime. */
    void account(long now) {
        if (current != null) {
            current.vruntime += now - accountedAt;
        }
        accountedAt = now;
        updateMinVruntime();
    }

    /**
     * update_min_vruntime() (kernel/sched/fair.c): min(current, leftmost waiting) if either is
     * queued, never less than before. Called where the kernel calls it: update_curr() ({@link
     * #account}) and after a vCPU leaves the queue (halts, or moves away).
     */
    void updateMinVruntime() {
        long least = leftmostVruntime(null);
        if (least != Long.MAX_VALUE) {
            minVruntime = Math.max(minVruntime, least);
        }
    }

    /** cfs_rq->min_vruntime as it stands. */
    long minVruntime() {
        return minVruntime;
    }

    /**
     * pick_next_entity(): the next buddy if it is runnable and may run ahead ({@link #mayRunAhead}),
     * else the runnable vCPU other than the current one with the least virtual runtime (ties go
     * round-robin after the current one), or null. {@code guestOnly}: only the primary guest's vCPUs (VM 0).
     */
    HostVcpu nextRunnable(boolean guestOnly) {
        if (nextBuddy != null && nextBuddy != current && nextBuddy.state == VcpuState.RUNNABLE
                && (!guestOnly || nextBuddy.vm == 0) && mayRunAhead(nextBuddy)) {
            return nextBuddy;
        }
        int n = vcpus.size();
        int start = current == null ? 0 : vcpus.indexOf(current) + 1;
        HostVcpu best = null;
        for (int i = 0; i < n; i++) {
            HostVcpu v = vcpus.get((start + i) % n);
            if (v != current && v.state == VcpuState.RUNNABLE && (!guestOnly || v.vm == 0)
                    && (best == null || v.vruntime < best.vruntime)) {
                best = v;
            }
        }
        return best;
    }

    /**
     * {@code v} is the next buddy and may run ahead: picked before the vCPU the queue's order would
     * pick. A buddy that has run too far ahead is just another waiting vCPU: pick_next_entity() runs
     * the leftmost (the current vCPU included) instead, and yield_to() still reports success.
     */
    boolean buddyMayRun(HostVcpu v) {
        return v == nextBuddy && mayRunAhead(v);
    }

    /**
     * The least virtual runtime of the queue (runnable and current vCPUs) other than {@code except}
     * (pick_next_entity()'s "left", the current vCPU included); MAX_VALUE if none.
     */
    long leftmostVruntime(HostVcpu except) {
        long min = Long.MAX_VALUE;
        for (HostVcpu v : vcpus) {
            if (v != except && (v == current || v.state == VcpuState.RUNNABLE)) {
                min = Math.min(min, v.vruntime);
            }
        }
        return min;
    }

    /**
     * Whether a buddy (a directed yield's target, or the vCPU a yielder leaves its pCPU to) may run
     * ahead of the queue's order. EEVDF: while {@link #eligible}. CFS (pick_next_entity() up to
     * 6.5): while it is at most the wake-up granularity ahead of the leftmost of the queue, the
     * current vCPU included (wakeup_preempt_entity(buddy, left) &lt; 1).
     */
    boolean mayRunAhead(HostVcpu v) {
        return cfs == null ? eligible(v) : !cfs.preempts(v.vruntime, leftmostVruntime(null));
    }

    /**
     * entity_eligible(): {@code v} has not run ahead of the queue's average virtual runtime
     * (avg_vruntime() over the current and the runnable vCPUs, all of the same weight). A next
     * buddy is picked only while eligible, so a directed yield cannot take more than a fair share.
     */
    boolean eligible(HostVcpu v) {
        long sum = 0;
        int n = 0;
        for (HostVcpu o : vcpus) {
            if (o == current || o.state == VcpuState.RUNNABLE) {
                sum += o.vruntime;
                n++;
            }
        }
        return n == 0 || v.vruntime * n <= sum;
    }

    /** nr_running: the current vCPU and those waiting for this pCPU. */
    int nrRunning() {
        int n = 0;
        for (HostVcpu o : vcpus) {
            if (o == current || o.state == VcpuState.RUNNABLE) {
                n++;
            }
        }
        return n;
    }

    /** Another vCPU than {@code v} waits for this pCPU (single_task_running() is false). */
    boolean othersRunnable(HostVcpu v) {
        for (HostVcpu o : vcpus) {
            if (o != v && o.state == VcpuState.RUNNABLE) {
                return true;
            }
        }
        return false;
    }
}
