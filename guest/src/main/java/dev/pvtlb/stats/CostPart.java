package dev.pvtlb.stats;

/**
 * Where a remote flush's time goes, as the cost breakdown of a run reports it. The initiator's
 * wait for its slowest target is the {@link TimeCategory#IPI_WAIT} time; these are the parts the
 * model charges as work. {@link #LINE_TRANSFERS} is a view across the others (a line transfer
 * is also part of the step that made it), so it is not added to them.
 */
public enum CostPart {
    /** flush_tlb_mm_range(): the tlb_gen increment, filling flush_tlb_info, reading mm_cpumask. */
    FLUSH_SETUP("flush_setup", "initiator: tlb_gen increment, flush_tlb_info, mm_cpumask read"),
    /** smp_call_function_many_cond() before the wait: should_flush_tlb reads, csd_lock, llist_add, the IPIs. */
    FLUSH_SEND("flush_send", "initiator: per target should_flush_tlb read, csd_lock, llist_add; IPI sends"),
    /** The initiator's own flush_tlb_func(). */
    FLUSH_LOCAL("flush_local", "initiator: its own flush_tlb_func"),
    /** Interrupt entry and exit of the call-function IPI, and the llist_del_all of the queue. */
    TARGET_IRQ("target_irq", "targets: interrupt entry and exit, llist_del_all"),
    /** Reading each queued csd from its sender's cache, running it, csd_unlock. */
    TARGET_CSD("target_csd", "targets: csd read, call, csd_unlock"),
    /** flush_tlb_func() on a target: INVLPGs or a full flush, the tlb_gen and flush_tlb_info reads. */
    TARGET_FLUSH("target_flush", "targets: flush_tlb_func (INVLPG or CR3, tlb_gen and flush_tlb_info reads)"),
    /** Time on shared cache lines beyond a hit (transfers and queueing), on every CPU; included in the parts above. */
    LINE_TRANSFERS("line_transfers", "all CPUs: shared-line transfers and queueing beyond a hit (part of the rows above)"),
    /** Page walks of user accesses that missed the TLB. */
    TLB_REFILLS("tlb_refill_walks", "all CPUs: page walks of user accesses that missed the TLB");

    public final String key;
    public final String description;

    CostPart(String key, String description) {
        this.key = key;
        this.description = description;
    }
}
