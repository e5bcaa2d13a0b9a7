package dev.pvtlb.stats;

/**
 * Event counters. The first four are the kernel's vmstat TLB events
 * (include/linux/vm_event_item.h, CONFIG_DEBUG_TLBFLUSH); the rest are pvtlb's own.
 */
public enum Counter {
    NR_TLB_REMOTE_FLUSH("nr_tlb_remote_flush"),
    NR_TLB_REMOTE_FLUSH_RECEIVED("nr_tlb_remote_flush_received"),
    NR_TLB_LOCAL_FLUSH_ALL("nr_tlb_local_flush_all"),
    NR_TLB_LOCAL_FLUSH_ONE("nr_tlb_local_flush_one"),
    IPIS_SENT("ipis_sent"),
    IPIS_RECEIVED("ipis_received"),
    HYPERCALLS("hypercalls"),
    VMEXITS("vmexits"),
    TLB_MISSES("tlb_misses"),
    PAGE_FAULTS("page_faults"),
    CONTEXT_SWITCHES("context_switches"),
    /** switch_mm_irqs_off() loaded CR3 with a flush (TLB_FLUSH_ON_TASK_SWITCH, TLB_FLUSH_ALL). */
    SWITCH_MM_FLUSHES("switch_mm_flushes"),
    TABLES_FREED("page_tables_freed"),
    RCU_GRACE_PERIODS("rcu_grace_periods");

    public final String key;

    Counter(String key) {
        this.key = key;
    }
}
