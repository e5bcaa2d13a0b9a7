package dev.pvtlb.pvops;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import java.util.function.BiConsumer;

/**
 * The guest's {@code pv_ops.mmu} entries that decide remote TLB flushing and page-table
 * freeing. The guest never holds a hand-written subclass: at boot {@link PvOpsPatcher}
 * generates one bound to the chosen backend's methods (the analogue of paravirt patching),
 * so every call site sees a single concrete class. Each op that takes several steps pushes
 * its kernel paths on {@code cpu}.
 */
public abstract class PvOps {
    /** For the classes {@link PvOpsPatcher} generates. */
    protected PvOps() {}

    private String backendName = "";
    /** Called with the op name and its arguments on every op of a traced class (null: untraced). */
    private BiConsumer<String, Object[]> tracer;

    /**
     * pv_ops.mmu.flush_tlb_multi(cpumask, info): flush {@code info} on every CPU of
     * {@code mask} that needs it, the initiator included (set {@code info.localFlushed} when
     * the initiator was flushed here).
     */
    public abstract void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info);

    /** tlb_remove_table(tlb, table): hand a page-table page to the gather for freeing after the flush. */
    public abstract void tlbRemoveTable(Cpu cpu, TlbGather tlb, int table);

    /** How gathered page tables are freed once the flush has returned. */
    public abstract TableFreePolicy tableFreePolicy();

    /**
     * A hardware-broadcast flush that does not look at mm_cpumask (see
     * {@link PvOpSignature#FLUSH_TLB_BROADCAST}). False: not broadcast, use flush_tlb_multi.
     */
    public boolean flushTlbBroadcast(Cpu cpu, FlushTlbInfo info) {
        return false;
    }

    /**
     * pv_ops.mmu.flush_tlb_one_user / flush_tlb_user (see {@link PvOpSignature#FLUSH_TLB_USER}):
     * {@code cpu} invalidates its own user translations for {@code info}, {@code pages} page by page
     * or all of them ({@link FlushTlbInfo#FLUSH_ALL}); the translations themselves are dropped by
     * the caller. Returns the op's cost; natively the INVLPGs or the CR3 write, {@code nativeNs}.
     */
    public long flushTlbUser(Cpu cpu, FlushTlbInfo info, long pages, long nativeNs) {
        return nativeNs;
    }

    /** The backend's name, as reports print it. */
    public final String name() {
        return backendName;
    }

    final void bind(String name, BiConsumer<String, Object[]> t) {
        this.backendName = name;
        this.tracer = t;
    }

    /** Called by the tracing advice of a traced pv_ops class on every op entry. */
    public final void traceCall(String method, Object[] args) {
        if (tracer != null) {
            tracer.accept(method, args);
        }
    }
}
