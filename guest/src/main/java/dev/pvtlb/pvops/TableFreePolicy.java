package dev.pvtlb.pvops;

/** How page-table pages taken out by an unmap are freed after the TLB flush (mm/mmu_gather.c). */
public enum TableFreePolicy {
    /** Freed right after the flush returns: safe only if the flush interrupts every lockless walker. */
    IMMEDIATE("immediate"),
    /** tlb_remove_table_sync_one(): an IPI to every other CPU, waited for, then free. */
    IPI_SYNC("ipi-sync"),
    /** MMU_GATHER_RCU_TABLE_FREE: freed after an RCU grace period (call_rcu). */
    RCU("rcu");

    public final String value;

    TableFreePolicy(String value) {
        this.value = value;
    }

    public static TableFreePolicy of(String v) {
        for (TableFreePolicy p : values()) {
            if (p.value.equals(v)) {
                return p;
            }
        }
        throw new IllegalArgumentException(v);
    }
}
