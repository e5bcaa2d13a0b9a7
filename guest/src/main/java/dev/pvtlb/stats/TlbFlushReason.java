package dev.pvtlb.stats;

/** The reasons of the kernel's {@code tlb:tlb_flush} tracepoint (include/linux/mm_types.h, enum tlb_flush_reason). */
public enum TlbFlushReason {
    TLB_FLUSH_ON_TASK_SWITCH,
    TLB_REMOTE_SHOOTDOWN,
    TLB_LOCAL_SHOOTDOWN,
    TLB_LOCAL_MM_SHOOTDOWN,
    TLB_REMOTE_SEND_IPI,
    TLB_REMOTE_WRONG_CPU
}
