package dev.pvtlb.pvops;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.mm.MmuGather;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;

/**
 * The guest's {@code pv_ops.mmu} entries that decide remote TLB flushing and page-table
 * freeing. Native is the default, as in the kernel; a backend replaces them at boot.
 * Each op that takes several steps pushes its kernel paths on {@code cpu}.
 */
public abstract class PvOps {
    /**
     * pv_ops.mmu.flush_tlb_multi(cpumask, info): flush {@code info} on every CPU of
     * {@code mask} that needs it, the initiator included (set {@code info.localFlushed} when
     * the initiator was flushed here).
     */
    public abstract void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info);

    /** tlb_remove_table(tlb, table): hand a page-table page to the gather for freeing after the flush. */
    public abstract void tlbRemoveTable(Cpu cpu, MmuGather tlb, int table);

    /** How gathered page tables are freed once the flush has returned. */
    public abstract TableFreePolicy tableFreePolicy();

    /** The backend's name, as reports print it. */
    public abstract String name();
}
