package dev.pvtlb.internal.kernel;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TlbFlushReason;
import dev.pvtlb.pvops.InjectedBug;

/** The per-CPU flush decisions of arch/x86/mm/tlb.c. */
public final class TlbFlush {
    private TlbFlush() {}

    /**
     * flush_tlb_func(): bring this CPU's TLB up to date with its loaded mm's tlb_gen, by
     * INVLPG per page when exactly one generation behind on a range, else a full flush.
     * Runs with IRQs off (from the IPI handler, or locally). Returns its cost in ns.
     */
    public static long flushTlbFunc(Cpu view, FlushTlbInfo f, boolean local) {
        long cost = flushTlbFuncWork(view, f, local);
        if (!local) {
            ((KernelCpu) view).kernel().ledger().addNs(dev.pvtlb.stats.CostPart.TARGET_FLUSH, cost);
        }
        return cost;
    }

    private static long flushTlbFuncWork(Cpu view, FlushTlbInfo f, boolean local) {
        KernelCpu cpu = (KernelCpu) view;
        Kernel g = cpu.kernel();
        Costs c = g.costs();
        TlbState ts = cpu.tlbState;
        Mm loaded = ts.loadedMm;
        long now = g.engine().now();
        long cost = 0;
        if (!local) {
            g.vmstat().inc(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED);
            KernelCpu[] all = g.cpus();
            if (f.initiatingCpu >= 0 && f.initiatingCpu < all.length && all[f.initiatingCpu] != cpu) {
                // The request itself: the sender's per-CPU flush_tlb_info, read from its cache.
                cost += cpu.lines.read(all[f.initiatingCpu].lines.flushTlbInfo, now);
            }
        }
        if (f.mm != null && f.mm != loaded) {
            // The CPU was left in the mm_cpumask of the target mm: clear it.
            cost += cpu.lines.write(((Mm) f.mm).cpumaskLine(), now + cost);
            f.mm.cpumask().clear(cpu.id);
            g.trace().tlbFlush(now, cpu.id, TlbFlushReason.TLB_REMOTE_WRONG_CPU, 0);
            return cost;
        }
        if (loaded.isInitMm()) {
            return cost;
        }
        if (ts.isLazy) {
            // Lazy: switching to init_mm is barely slower than a minimal flush, and stops
            // speculative walks of the old tables (flush_tlb_func, "We're in lazy mode").
            return cost + SwitchMm.switchMmIrqsOff(cpu, g.initMm());
        }
        int asid = ts.loadedMmAsid;
        long localGen = ts.tlbGen[asid];
        if (f.newTlbGen <= localGen) {
            return cost; // already up to date with respect to this request
        }
        // mm->context.tlb_gen, the line every flush of this mm increments.
        cost += cpu.lines.read(loaded.tlbGenLine(), now + cost);
        long mmGen = loaded.tlbGen();
        long nr;
        if (!f.isFullFlush() && f.newTlbGen == localGen + 1 && f.newTlbGen == mmGen) {
            nr = f.pages();
            if (g.knobs().bug != InjectedBug.RANGE_FLUSH_NO_INVLPG) {
                for (long addr = f.start; addr < f.end; addr += 1L << f.strideShift) {
                    cpu.invlpg(addr);
                }
            }
            cost += g.pvOps().flushTlbUser(cpu, f, nr, nr * c.invlpgNs);
            if (local) {
                g.vmstat().add(Counter.NR_TLB_LOCAL_FLUSH_ONE, nr);
            }
        } else {
            nr = FlushTlbInfo.FLUSH_ALL;
            cpu.flushTlbLocal();
            cost += g.pvOps().flushTlbUser(cpu, f, nr, c.fullFlushNs);
            if (local) {
                g.vmstat().inc(Counter.NR_TLB_LOCAL_FLUSH_ALL);
            }
        }
        ts.tlbGen[asid] = mmGen;
        if (!g.knobs().concurrentFlush) {
            // Before the concurrent-flush series (5.13; "x86/mm/tlb: Privatize cpu_tlbstate"),
            // is_lazy sat in cpu_tlbstate, in the cache line of ctxs[].tlb_gen that
            // this_cpu_write() just updated: the false sharing the series' cover letter names.
            // The next sender's should_flush_tlb() read of is_lazy finds the line dirty here.
            cost += cpu.lines.write(cpu.lines.tlbstateShared, now + cost);
        }
        g.trace().tlbFlush(now, cpu.id, !local ? TlbFlushReason.TLB_REMOTE_SHOOTDOWN
                : f.mm == null ? TlbFlushReason.TLB_LOCAL_SHOOTDOWN : TlbFlushReason.TLB_LOCAL_MM_SHOOTDOWN, nr);
        if (g.checker() != null) {
            g.checker().afterFlushFunc(cpu, f);
        }
        return cost;
    }

    /**
     * should_flush_tlb(): skip CPUs in lazy TLB mode; they catch up at switch_mm. With
     * {@code shouldFlushTlb=loaded-mm} (6.8-6.14) also skip a CPU whose loaded_mm is not the
     * mm, which wrongly includes one in LOADED_MM_SWITCHING that already read tlb_gen and wrote
     * CR3 (CVE-2025-37964); {@code switching} is the fix fea4e317f9e7 ("x86/mm: Eliminate window
     * where TLB flushes may be inadvertently skipped", 6.15): a switching CPU is flushed.
     */
    public static boolean shouldFlushTlb(Cpu target, FlushTlbInfo info) {
        TlbState ts = ((KernelCpu) target).tlbState;
        if (ts.lazyVisible()) {
            return false;
        }
        dev.pvtlb.pvops.GuestKnobs k = ((KernelCpu) target).kernel().knobs();
        if (!k.shouldFlushChecksLoadedMm || info.mm == null) {
            return true;
        }
        if (ts.switchingVisible()) {
            return k.shouldFlushSwitching;
        }
        // "In cpumask, but not the loaded mm? Periodically remove by flushing." (6db2526c1d69)
        return ts.loadedMm == info.mm || info.trimCpumask;
    }
}
