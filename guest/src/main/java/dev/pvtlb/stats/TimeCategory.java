package dev.pvtlb.stats;

/** What a CPU spends its virtual time on. */
public enum TimeCategory {
    USER("user"),
    KERNEL("kernel"),
    FLUSH_HANDLER("flush_handler"),
    IPI_WAIT("ipi_wait"),
    SWITCH_MM("switch_mm"),
    IDLE("idle"),
    /** A vCPU not running on any pCPU (preempted by the host, or waiting for it). */
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
