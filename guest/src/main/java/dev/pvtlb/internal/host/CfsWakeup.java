package dev.pvtlb.internal.host;

/**
 * The host scheduler's wake-up rules before EEVDF (kernel/sched/fair.c, CFS, up to Linux 6.5),
 * knob {@code host.scheduler=cfs}: the hosts of the 2019 measurements in validation.md ran it.
 * A thread waking from sleep is placed at most half a scheduling latency behind the queue's
 * minimum virtual runtime (place_entity() with GENTLE_FAIR_SLEEPERS), and preempts the running
 * thread when that one is more than the wake-up granularity ahead (wakeup_preempt_entity()).
 * So a vCPU woken from HLT usually preempts a CPU-bound vCPU at once; under EEVDF (6.6+) it keeps
 * the lag it had and waits while it is not eligible or the current thread runs to parity.
 *
 * <p>The tunables are the profile's kernel.cfs.* figures (sysctl_sched_latency,
 * sysctl_sched_min_granularity, sysctl_sched_wakeup_granularity), scaled by
 * {@code 1 + ilog2(min(ncpus, 8))} (SCHED_TUNABLESCALING_LOG, get_update_sysctl_factor());
 * sched_nr_latency is 8.
 */
final class CfsWakeup {
    private static final int NR_LATENCY = 8;

    private final int factor;
    private final long latencyNs;
    private final long minGranularityNs;
    private final long wakeupGranularityNs;

    /** For a host of {@code pcpus} CPUs, with the tunables of {@code costs}. */
    CfsWakeup(int pcpus, dev.pvtlb.internal.profile.Costs costs) {
        this.factor = 1 + (31 - Integer.numberOfLeadingZeros(Math.max(1, Math.min(pcpus, 8))));
        this.latencyNs = costs.cfsLatencyNs;
        this.minGranularityNs = costs.cfsMinGranularityNs;
        this.wakeupGranularityNs = costs.cfsWakeupGranularityNs;
    }

    /** place_entity(cfs_rq, se, 0): the woken thread's virtual runtime. */
    long place(long vruntime, long minVruntime) {
        return Math.max(vruntime, minVruntime - latencyNs * factor / 2);
    }

    /** wakeup_preempt_entity(curr, se) == 1: the woken thread preempts the current one. */
    boolean preempts(long currentVruntime, long wokenVruntime) {
        return currentVruntime - wokenVruntime > wakeupGranularityNs * factor;
    }

    /** sched_slice() of one of {@code nrRunning} equal-weight threads: __sched_period() shared out. */
    long slice(int nrRunning) {
        int n = Math.max(1, nrRunning);
        long period = n > NR_LATENCY ? n * minGranularityNs * factor : latencyNs * factor;
        return period / n;
    }
}
