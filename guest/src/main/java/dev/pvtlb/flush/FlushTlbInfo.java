package dev.pvtlb.flush;

import dev.pvtlb.smp.MmHandle;


/**
 * {@code struct flush_tlb_info} (arch/x86/include/asm/tlbflush.h): what one flush request
 * covers. {@code end == FLUSH_ALL} asks for a full flush of the mm.
 */
public final class FlushTlbInfo {
    /** TLB_FLUSH_ALL. */
    public static final long FLUSH_ALL = -1L;

    public final MmHandle mm;
    public final long start;
    public final long end;
    public final int strideShift;
    public final boolean freedTables;
    public final long newTlbGen;
    public final int initiatingCpu;
    /** Set once the initiator's own TLB has been flushed by the flush_tlb_multi backend. */
    public boolean localFlushed;
    /**
     * info->trim_cpumask (x86.mmCpumask=lazy-trim): this flush also goes to the CPUs in mm_cpumask
     * that no longer run the mm, so that they clear their bit; set at most once a second per mm.
     */
    public boolean trimCpumask;
    /**
     * The PTE changes behind this flush only added permissions (mprotect() making pages writable
     * again, which x86 flushes all the same). Not a field of the kernel's struct: a shadow MMU that
     * syncs its entries from the guest's at the flush (KVM's, under PVM) has nothing to revoke.
     */
    public boolean raisesOnly;

    public FlushTlbInfo(MmHandle mm, long start, long end, int strideShift, boolean freedTables, long newTlbGen, int initiatingCpu) {
        this.mm = mm;
        this.start = start;
        this.end = end;
        this.strideShift = strideShift;
        this.freedTables = freedTables;
        this.newTlbGen = newTlbGen;
        this.initiatingCpu = initiatingCpu;
    }

    public boolean isFullFlush() {
        return end == FLUSH_ALL;
    }

    /** Pages covered, or {@link #FLUSH_ALL} (as the tlb_flush tracepoint reports). */
    public long pages() {
        return isFullFlush() ? FLUSH_ALL : (end - start) >>> strideShift;
    }

    @Override
    public String toString() {
        return isFullFlush() ? mm + " all gen " + newTlbGen
                : String.format("%s [0x%x,0x%x) gen %d%s", mm, start, end, newTlbGen, freedTables ? " freed_tables" : "");
    }
}
