package dev.pvtlb.internal.kernel;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.smp.MmHandle;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.CostPart;
import dev.pvtlb.pvops.InjectedBug;

/**
 * flush_tlb_mm_range(mm, start, end, stride_shift, freed_tables) (arch/x86/mm/tlb.c):
 * bump mm->context.tlb_gen, turn a range above tlb_single_page_flush_ceiling pages into a full
 * flush, and if any other CPU is in mm_cpumask hand the request to
 * pv_ops.mmu.flush_tlb_multi; otherwise flush locally if the mm is loaded here.
 */
public final class FlushTlbMmRange extends KernelPath {
    private final Mm mm;
    private final long start;
    private final long end;
    private final int strideShift;
    private final boolean freedTables;
    private final boolean raisesOnly;
    private FlushTlbInfo info;

    /** A flush of {@code mm}, which must be the guest's own (from {@link FlushTlbInfo#mm}, say). */
    public FlushTlbMmRange(MmHandle mm, long start, long end, int strideShift, boolean freedTables) {
        this(mm, start, end, strideShift, freedTables, false);
    }

    /** As above; {@code raisesOnly}: the PTE changes only added permissions ({@link FlushTlbInfo#raisesOnly}). */
    public FlushTlbMmRange(MmHandle mm, long start, long end, int strideShift, boolean freedTables, boolean raisesOnly) {
        if (!(mm instanceof Mm own)) {
            throw new IllegalArgumentException("flush_tlb_mm_range needs an mm of the guest, not " + mm);
        }
        this.mm = own;
        this.start = start;
        this.end = end;
        this.strideShift = strideShift;
        this.freedTables = freedTables;
        this.raisesOnly = raisesOnly;
    }

    /** The request built by the first step (null before it ran). */
    public FlushTlbInfo info() {
        return info;
    }

    @Override
    public long step(Cpu view) {
        KernelCpu cpu = (KernelCpu) view;
        Kernel g = cpu.kernel();
        Costs c = g.costs();
        if (pc == 0) {
            long s = start;
            long e = end;
            if (e != FlushTlbInfo.FLUSH_ALL && ((e - s) >>> strideShift) > c.flushCeilingPages) {
                s = 0;
                e = FlushTlbInfo.FLUSH_ALL;
            }
            // inc_mm_tlb_gen(): an atomic on the mm's context line, a full barrier; then
            // get_flush_tlb_info() fills this CPU's flush_tlb_info, which the targets will read.
            long now = g.engine().now();
            long cost = cpu.lines.write(mm.tlbGenLine(), now);
            cost += cpu.lines.write(cpu.lines.flushTlbInfo, now + cost);
            long gen = g.knobs().bug == InjectedBug.TLB_GEN_NOT_BUMPED ? mm.tlbGen() : mm.incTlbGen();
            OrderedStores.fence(cpu.tlbState); // inc_mm_tlb_gen() is a locked operation
            info = new FlushTlbInfo(mm, s, e, strideShift, freedTables, gen, cpu.id);
            info.raisesOnly = raisesOnly;
            if (g.checker() != null) {
                g.checker().flushStarted(cpu, info);
            }
            // x86 6.15 checks a global ASID first (broadcast_tlb_flush); arm64 always broadcasts.
            if (g.pvOps().flushTlbBroadcast(cpu, info)) {
                pc = 1;
                g.ledger().addNs(CostPart.FLUSH_SETUP, cost);
                return cost;
            }
            // cpumask_any_but(mm_cpumask(mm), cpu): a read of the mask other CPUs set and clear.
            cost += cpu.lines.read(mm.cpumaskLine(), now + cost);
            if (mm.cpumask().anyBut(cpu.id) >= 0) {
                pc = 1;
                if (g.knobs().mmCpumaskTrim) {
                    info.trimCpumask = mm.shouldTrimCpumask(now, g.costs().cpumaskTrimPeriodNs); // should_trim_cpumask()
                }
                g.ledger().addNs(CostPart.FLUSH_SETUP, cost);
                if (!g.knobs().concurrentFlush && cpu.loadedMm() == mm) {
                    // Before the concurrent-flush series (4ce94eabac16, 5.13) flush_tlb_mm_range()
                    // flushed this CPU first, IRQs off (flush_tlb_func_local()), and only then
                    // called flush_tlb_others(): the local flush is not overlapped, and it is done
                    // against the tlb_gen of its own request, before any other CPU's flush reaches
                    // this one while it waits.
                    long local = TlbFlush.flushTlbFunc(cpu, info, true);
                    info.localFlushed = true;
                    g.ledger().addNs(CostPart.FLUSH_LOCAL, local);
                    cost += local;
                }
                g.pvOps().flushTlbMulti(cpu, mm.cpumask(), info);
                return cost;
            }
            if (cpu.loadedMm() == mm) {
                cost += TlbFlush.flushTlbFunc(cpu, info, true);
            }
            finish(cpu);
            return cost;
        }
        // flush_tlb_multi returned. A backend that leaves the local CPU to its caller flushes it
        // only now (with concurrentFlush=false it was flushed before the remote ones).
        long cost = 0;
        if (!info.localFlushed && cpu.loadedMm() == mm) {
            cost = TlbFlush.flushTlbFunc(cpu, info, true);
            cpu.kernel().ledger().addNs(CostPart.FLUSH_LOCAL, cost);
        }
        finish(cpu);
        return cost;
    }

    private void finish(KernelCpu cpu) {
        cpu.ret();
        mm.flushReturned(cpu.kernel().engine().now());
        if (cpu.kernel().checker() != null) {
            cpu.kernel().checker().flushReturned(cpu, info);
        }
    }

    @Override
    public String name() {
        return "flush_tlb_mm_range";
    }
}
