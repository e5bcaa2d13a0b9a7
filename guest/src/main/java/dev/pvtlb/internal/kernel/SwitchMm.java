package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TlbFlushReason;
import dev.pvtlb.pvops.InjectedBug;

/** switch_mm_irqs_off(), choose_new_asid() and enter_lazy_tlb() of arch/x86/mm/tlb.c. */
public final class SwitchMm {
    private SwitchMm() {}

    /**
     * switch_mm_irqs_off(prev = loaded_mm, next): returns the cost in ns (CR3 write, flush,
     * mm_cpumask atomics).
     */
    public static long switchMmIrqsOff(KernelCpu cpu, Mm next) {
        Kernel g = cpu.kernel();
        Costs c = g.costs();
        TlbState ts = cpu.tlbState;
        Mm prev = ts.loadedMm;
        int prevAsid = ts.loadedMmAsid;
        boolean wasLazy = ts.isLazy;
        long cost = 0;
        long now = g.engine().now();
        int newAsid;
        boolean needFlush;
        long nextTlbGen;
        if (wasLazy) {
            // this_cpu_write(cpu_tlbstate_shared.is_lazy, false): a line flush senders read.
            cost += cpu.lines.write(cpu.lines.tlbstateShared, now);
            OrderedStores.storeLazy(cpu.tlbState, false);
        } else if (!g.knobs().concurrentFlush) {
            // Before "x86/mm/tlb: Do not make is_lazy dirty for no reason" (the concurrent-flush
            // series, 5.13), every switch wrote is_lazy = false, and the line held loaded_mm too.
            cost += cpu.lines.write(cpu.lines.tlbstateShared, now);
        }
        // The smp_mb() before the tlb_gen read when leaving lazy mode ("The barrier synchronizes
        // with the tlb_gen increment in the TLB shootdown code"); for a new mm, the locked
        // mm_cpumask operations and the CR3 write: either way this CPU's stores drain here.
        if (prev != next || (wasLazy && g.knobs().switchMmSmpMb)) {
            OrderedStores.fence(cpu.tlbState);
        }
        if (prev == next) {
            if (!wasLazy) {
                return 0;
            }
            // Leaving lazy mode: read tlb_gen (after smp_mb) to see whether flushes were skipped.
            if (g.mmCpumaskTracked() && !next.cpumask().test(cpu.id)) {
                cost += cpu.lines.write(next.cpumaskLine(), now + cost);
                next.cpumask().set(cpu.id);
            }
            cost += cpu.lines.read(next.tlbGenLine(), now + cost);
            nextTlbGen = next.tlbGen();
            if (ts.tlbGen[prevAsid] == nextTlbGen) {
                return cost;
            }
            newAsid = prevAsid;
            needFlush = true;
        } else {
            cost += switchCpumask(cpu, prev, next);
            return cost + loadNewMm(cpu, next);
        }
        cost += c.cr3WriteNs;
        loadCr3(cpu, next, newAsid, nextTlbGen, needFlush, now);
        if (needFlush) {
            cost += c.fullFlushNs;
        }
        ts.loadedMm = next;
        return cost;
    }

    /**
     * The mm_cpumask part of switch_mm_irqs_off() for a new mm: stop remote flushes for the
     * previous mm (init_mm is never flushed by IPI) and start them for the next.
     */
    static long switchCpumask(KernelCpu cpu, Mm prev, Mm next) {
        Kernel g = cpu.kernel();
        long now = g.engine().now();
        long cost = 0;
        if (!prev.isInitMm() && g.mmCpumaskTracked() && !g.knobs().mmCpumaskLazy) {
            // Until 6.12; since 209954cbc7d0 the bit stays, and the first flush sent here for
            // prev clears it (flush_tlb_func(), TLB_REMOTE_WRONG_CPU): no write at each switch.
            cost += cpu.lines.write(prev.cpumaskLine(), now);
            prev.cpumask().clear(cpu.id);
        }
        if (!next.isInitMm() && g.mmCpumaskTracked() && !next.cpumask().test(cpu.id)
                && g.knobs().bug != InjectedBug.SWITCH_MM_NO_CPUMASK) {
            cost += cpu.lines.write(next.cpumaskLine(), now + cost);
            next.cpumask().set(cpu.id);
        }
        return cost;
    }

    /**
     * The rest of switch_mm_irqs_off() for a new mm: read next's tlb_gen, choose_new_asid(),
     * load_new_mm_cr3() and, last, loaded_mm = next. Returns the cost in ns.
     */
    static long loadNewMm(KernelCpu cpu, Mm next) {
        long cost = loadNewMmCr3(cpu, next);
        cpu.tlbState.loadedMm = next;
        return cost;
    }

    /**
     * Read next's tlb_gen, choose_new_asid() and load_new_mm_cr3(), leaving loaded_mm alone
     * (it is LOADED_MM_SWITCHING in the kernel until the caller writes next).
     */
    static long loadNewMmCr3(KernelCpu cpu, Mm next) {
        Kernel g = cpu.kernel();
        Costs c = g.costs();
        TlbState ts = cpu.tlbState;
        long lineCost = cpu.lines.read(next.tlbGenLine(), g.engine().now());
        long nextTlbGen = next.tlbGen();
        // choose_new_asid()
        int newAsid = -1;
        boolean needFlush = true;
        for (int asid = 0; asid < TlbState.NR_DYN_ASIDS; asid++) {
            if (ts.ctxId[asid] == next.ctxId()) {
                newAsid = asid;
                needFlush = ts.tlbGen[asid] < nextTlbGen;
                break;
            }
        }
        if (newAsid < 0) {
            newAsid = ts.nextAsid++;
            if (newAsid >= TlbState.NR_DYN_ASIDS) {
                newAsid = 0;
                ts.nextAsid = 1;
            }
            needFlush = true;
        }
        loadCr3(cpu, next, newAsid, nextTlbGen, needFlush, g.engine().now());
        return lineCost + c.cr3WriteNs + (needFlush ? c.fullFlushNs : 0);
    }

    /** load_new_mm_cr3(pgd, new_asid, need_flush): with need_flush the CR3 write flushes the PCID. */
    private static void loadCr3(KernelCpu cpu, Mm next, int newAsid, long nextTlbGen, boolean needFlush, long now) {
        Kernel g = cpu.kernel();
        TlbState ts = cpu.tlbState;
        if (needFlush) {
            ts.ctxId[newAsid] = next.ctxId();
            ts.tlbGen[newAsid] = nextTlbGen;
            cpu.flushAsid(newAsid, next);
            g.vmstat().inc(Counter.SWITCH_MM_FLUSHES);
            g.trace().tlbFlush(now, cpu.id, TlbFlushReason.TLB_FLUSH_ON_TASK_SWITCH, -1);
        } else {
            g.trace().tlbFlush(now, cpu.id, TlbFlushReason.TLB_FLUSH_ON_TASK_SWITCH, 0);
        }
        ts.loadedMmAsid = newAsid;
    }

    /** enter_lazy_tlb(): keep the old mm loaded, only mark the CPU lazy. Returns its cost in ns. */
    public static long enterLazyTlb(KernelCpu cpu) {
        if (cpu.tlbState.loadedMm.isInitMm()) {
            return 0;
        }
        OrderedStores.storeLazy(cpu.tlbState, true); // no barrier: enter_lazy_tlb() is a plain this_cpu_write()
        // The write of cpu_tlbstate_shared.is_lazy, a line flush senders read.
        return cpu.lines.write(cpu.lines.tlbstateShared, cpu.kernel().engine().now());
    }
}
