package dev.pvtlb.stats;

/** What a CPU spends its virtual time on. */
public enum TimeCategory {
    USER("user"),
    KERNEL("kernel"),
    FLUSH_HANDLER("flush_handler"),
    IPI_WAIT("ipi_wait"),
    /**
     * Spinning for a contended spinlock: the queued-spinlock slow path
     * (queued_spin_lock_slowpath(), or its paravirtual variant before pv_wait() halts), what a
     * kernel profile shows as native_queued_spin_lock_slowpath. A halted pv_wait() is idle.
     */
    LOCK_SPIN("lock_spin"),
    SWITCH_MM("switch_mm"),
    IDLE("idle"),
    /**
     * A vCPU not running on any pCPU while it has work (preempted by the host, or waiting for
     * it), a spinning one's included: the guest's steal time. A halted vCPU's time off its pCPU
     * is idle.
     */
    STOLEN("stolen"),
    /**
     * Invalidations another CPU asked this one's hardware to do, with no software handler:
     * arm64 TLBI ...IS reaching every CPU of the domain, Intel RAR.
     */
    REMOTE_INVALIDATION("remote_invalidation");

    public final String key;

    TimeCategory(String key) {
        this.key = key;
    }
}
