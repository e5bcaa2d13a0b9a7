package dev.pvtlb.pvops;

import dev.pvtlb.smp.Cpu;

/**
 * The table-freeing ops every built-in backend shares: tlb_remove_table() batches the table
 * in the mmu_gather (tlb_remove_table_rcu / tlb_remove_table_one are the same batching with a
 * different free), and how the batch is freed is the guest's {@code tableFree} knob. A backend
 * extends this and adds its flush ops; the patcher finds inherited {@link PvOp} methods.
 */
public abstract class GuestTableFree {
    protected final GuestKnobs knobs;

    protected GuestTableFree(GuestKnobs knobs) {
        this.knobs = knobs;
    }

    @PvOp("tlb_remove_table")
    public void tlbRemoveTable(Cpu cpu, TlbGather tlb, int table) {
        tlb.addTable(table);
    }

    @PvOp("table_free_policy")
    public TableFreePolicy tableFreePolicy() {
        return knobs.tableFree;
    }
}
