package dev.pvtlb.internal.kernel;

/**
 * The guest side of a vCPU that its host deschedules and resumes ({@link VcpuRunState}): the
 * CPU's number, whether it is busy-waiting (a spin whose time turns into steal time while the
 * vCPU is off its pCPU), the booking of its blocked stretch up to a time, and the queueing of
 * its next step. {@link KernelCpu} is one; the run state sees it through this, so it does not
 * name the CPU that holds it.
 */
interface VcpuExecution {
    int id();

    /** Blocked other than halted: csd_lock_wait(), a spinlock's slow path. */
    boolean busyWaiting();

    /** Books the blocked stretch up to {@code now}. */
    void bookBlocked(long now);

    /** Queues the CPU's next step at {@code time}. */
    void stepAt(long time);

    /** Tells its SMT siblings if it started or stopped executing (descheduled or run again by the host). */
    void executionMayHaveChanged();
}
