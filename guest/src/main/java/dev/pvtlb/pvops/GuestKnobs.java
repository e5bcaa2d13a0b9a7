package dev.pvtlb.pvops;

import dev.pvtlb.flush.LazyMode;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import java.util.List;

/** The guest kernel's design knobs, read once at boot into fields for the hot paths. */
public final class GuestKnobs {
    public static final KnobSpec CONCURRENT_FLUSH = KnobSpec.bool("native.concurrentFlush", true,
            "flush locally while remote IPIs are in flight (x86/tlb concurrent-flush series, Linux 5.10); "
                    + "false: local flush only after all remote ones finished");
    public static final KnobSpec SMT_SIBLING_DEDUP = KnobSpec.bool("native.smtSiblingDedup", false,
            "IPI only one thread of each SMT pair in the mask (Alex Shi, LKML 2012; not merged)");
    public static final KnobSpec LAZY = KnobSpec.choice("lazy", "skip",
            "lazy TLB: off = idle switches to init_mm; ipi = lazy CPUs take every flush IPI; "
                    + "skip = lazy CPUs skipped unless tables were freed; skip-nofree = skipped even then (bug)",
            "off", "ipi", "skip", "skip-nofree");
    public static final KnobSpec TABLE_FREE = KnobSpec.choice("tableFree", "rcu",
            "how freed page tables are released after the flush: immediate, ipi-sync "
                    + "(tlb_remove_table_sync_one), rcu (MMU_GATHER_RCU_TABLE_FREE, x86 default)",
            "immediate", "ipi-sync", "rcu");

    public static final KnobSpec NESTED_FLUSH = KnobSpec.choice("nestedFlush", "flush",
            "tlb_finish_mmu() when another zap of the mm is in flight (mm_tlb_flush_nested): flush = flush the whole "
                    + "range anyway (fix 99baac21e458, 2017); skip = flush only what this zap cleared (the MADV_DONTNEED miss)",
            "flush", "skip");

    public static final KnobSpec X2APIC = KnobSpec.choice("x86.x2apic", "physical",
            "x2APIC destination mode of IPIs: physical = one ICR write per target (x2apic_phys.c); cluster = one ICR "
                    + "write per cluster of 16 APIC IDs in the mask (x2apic_cluster.c, apic_cluster(id) = id >> 4)",
            "physical", "cluster");

    public static final List<KnobSpec> SPECS = List.of(CONCURRENT_FLUSH, SMT_SIBLING_DEDUP, LAZY, TABLE_FREE,
            NESTED_FLUSH, X2APIC);

    public final boolean concurrentFlush;
    public final boolean smtSiblingDedup;
    public final LazyMode lazy;
    public final TableFreePolicy tableFree;
    public final boolean nestedFlush;
    public final boolean x2apicCluster;

    public GuestKnobs(Knobs k) {
        concurrentFlush = k.bool(CONCURRENT_FLUSH.name());
        smtSiblingDedup = k.bool(SMT_SIBLING_DEDUP.name());
        lazy = LazyMode.of(k.get(LAZY.name()));
        tableFree = TableFreePolicy.of(k.get(TABLE_FREE.name()));
        nestedFlush = k.get(NESTED_FLUSH.name()).equals("flush");
        x2apicCluster = k.get(X2APIC.name()).equals("cluster");
    }
}
