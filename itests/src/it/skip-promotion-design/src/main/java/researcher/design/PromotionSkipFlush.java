package researcher.design;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.VmStat;

/**
 * A remote-flush design of a researcher's own, written against pvtlb's published SPI only: no
 * shootdown for a flush whose page-table changes only added permissions.
 *
 * <p>The question it asks: should x86 skip the flush of a permission promotion as powerpc's radix
 * MMU does? {@code change_pte_range()} (mm/mprotect.c) queues a flush only when
 * {@code pte_needs_flush(oldpte, newpte)} says so (Nadav Amit, "mm/mprotect: do not flush when not
 * required architecturally", 2022). powerpc book3s64 answers no for a change that only sets read,
 * write, execute, dirty or accessed bits (Nicholas Piggin, "powerpc/64s: add pte_needs_flush and
 * huge_pmd_needs_flush", 2022). x86's {@code pte_flags_need_flush()}
 * (arch/x86/include/asm/tlbflush.h) still flushes any change of {@code _PAGE_RW}, so that no CPU
 * takes a spurious page fault. That trade is made for the local CPU; a shootdown interrupts every
 * CPU of mm_cpumask, and only the CPUs that store to the pages would pay the spurious fault. This
 * backend makes x86 take powerpc's answer and lets pvtlb price it.
 *
 * <p>A pv_ops backend sees the request only in {@code pv_ops.mmu.flush_tlb_multi}, after
 * flush_tlb_mm_range() has built it; {@link FlushTlbInfo#raisesOnly} says the whole change was such a
 * promotion (mprotect() making pages writable again). This op then sends nothing; every other flush
 * goes to {@code native_flush_tlb_multi()} unchanged.
 *
 * <p>Why skipping is safe: a CPU that keeps a translation from before the change holds the same
 * page frame with fewer rights than the page table now grants. A load through it is allowed by the
 * new PTE as by the old. A store through it faults, and on x86 a page fault invalidates the TLB
 * entries of the faulting address (Intel SDM vol. 3A, "Operations that Invalidate TLBs and
 * Paging-Structure Caches"); {@code handle_pte_fault()} finds the PTE writable already
 * ({@code flush_tlb_fix_spurious_fault()} is empty on x86 for that reason) and the retried store
 * walks the new PTE. No access can use a right that was taken away, because none was. The
 * initiator's own TLB is still flushed: flush_tlb_mm_range() flushes it after this op returns
 * without having done so ({@code info.localFlushed} stays false).
 *
 * <p>What stays native, and why:
 * <ul>
 * <li>a flush that freed page tables: lazy CPUs must be interrupted so that their paging-structure
 * caches drop the freed tables (native_flush_tlb_multi()'s freed_tables rule). A promotion never
 * frees tables; the test keeps a future caller from combining the two past this op.
 * <li>a flush that carries the mm_cpumask trim ({@code info.trimCpumask}, x86.mmCpumask=lazy-trim):
 * should_trim_cpumask() has already spent the once-a-second trim on this request, so skipping it
 * would leave stale mm_cpumask bits a second longer. The kernel never reaches should_trim_cpumask()
 * for a change that needs no flush; here the decision comes too late to give the trim back.
 * </ul>
 *
 * <p>A cost the SPI imposes: flush_tlb_mm_range() has already bumped {@code mm->context.tlb_gen}
 * when this op runs, so a CPU that is skipped is a generation behind afterwards, and its next flush
 * of this mm is a full one where it could have been a range ({@code flush_tlb_func()} takes a range
 * only when exactly one generation behind). In the kernel the generation is never spent.
 */
public final class PromotionSkipFlush extends GuestTableFree {
    static final String NAME = "researcher-skip-promotion";
    /** Off: every flush goes to native_flush_tlb_multi(), the baseline for the same backend. */
    static final KnobSpec SKIP = KnobSpec.bool("researcher.skipPromotion", true,
            "no remote shootdown for a flush that only added permissions (powerpc radix's pte_needs_flush() on x86); false: every flush native");
    /** The counter of shootdowns not sent, reported with the guest's. */
    static final String SKIPPED = "researcher_promotions_skipped";

    private final BackendContext context;
    private final boolean skip;
    private final VmStat.Own skipped;

    PromotionSkipFlush(BackendContext context, Knobs knobs) {
        super(context.knobs());
        this.context = context;
        this.skip = knobs.bool(SKIP.name());
        this.skipped = context.counter(SKIPPED);
    }

    /**
     * pv_ops.mmu.flush_tlb_multi(cpumask, info): nothing for a promotion, else
     * native_flush_tlb_multi() (which counts NR_TLB_REMOTE_FLUSH and IPIs the CPUs of the mask that
     * should_flush_tlb(), lazy ones too when tables were freed).
     */
    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        if (skip && info.raisesOnly && !info.freedTables && !info.trimCpumask) {
            skipped.inc();
            return;
        }
        context.nativeFlushTlbMulti(cpu, mask, info);
    }

    /** The ServiceLoader entry (META-INF/services/dev.pvtlb.pvops.PvBackend). */
    public static final class Provider extends BackendProvider {
        public Provider() {
            super(NAME, "bare metal: native IPIs, none for a flush that only added permissions (powerpc radix's pte_needs_flush() on x86)", false, SKIP);
        }

        @Override
        public Object attach(BackendContext context, Knobs knobs) {
            return new PromotionSkipFlush(context, knobs);
        }
    }
}
