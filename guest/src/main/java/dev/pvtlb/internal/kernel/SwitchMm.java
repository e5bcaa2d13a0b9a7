package dev.pvtlb.internal.kernel;

import dev.pvtlb.internal.mm.Mm;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TlbFlushReason;

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
            cost += cpu.writeLine(cpu.tlbstateSharedLine, now);
            ts.isLazy = false;
        }
        if (prev == next) {
            if (!wasLazy) {
                return 0;
            }
            // Leaving lazy mode: read tlb_gen (after smp_mb) to see whether flushes were skipped.
            if (g.mmCpumaskTracked() && !next.cpumask().test(cpu.id)) {
                cost += cpu.writeLine(next.cpumaskLine(), now + cost);
                next.cpumask().set(cpu.id);
            }
            cost += cpu.readLine(next.tlbGenLine(), now + cost);
            nextTlbGen = next.tlbGen();
            if (ts.tlbGen[prevAsid] == nextTlbGen) {
                return cost;
            }
            newAsid = prevAsid;
            needFlush = true;
        } else {
            // Stop remote flushes for the previous mm; init_mm is never flushed by IPI.
            if (!prev.isInitMm() && g.mmCpumaskTracked()) {
                cost += cpu.writeLine(prev.cpumaskLine(), now + cost);
                prev.cpumask().clear(cpu.id);
            }
            if (!next.isInitMm() && g.mmCpumaskTracked() && !next.cpumask().test(cpu.id)) {
                cost += cpu.writeLine(next.cpumaskLine(), now + cost);
                next.cpumask().set(cpu.id);
            }
            cost += cpu.readLine(next.tlbGenLine(), now + cost);
            nextTlbGen = next.tlbGen();
            // choose_new_asid()
            newAsid = -1;
            needFlush = true;
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
        }
        cost += c.cr3WriteNs;
        if (needFlush) {
            ts.ctxId[newAsid] = next.ctxId();
            ts.tlbGen[newAsid] = nextTlbGen;
            // load_new_mm_cr3(pgd, new_asid, true): the CR3 write flushes the PCID.
            cpu.flushAsid(newAsid, next);
            cost += c.fullFlushNs;
            g.vmstat().inc(Counter.SWITCH_MM_FLUSHES);
            g.trace().tlbFlush(now, cpu.id, TlbFlushReason.TLB_FLUSH_ON_TASK_SWITCH, -1);
        } else {
            g.trace().tlbFlush(now, cpu.id, TlbFlushReason.TLB_FLUSH_ON_TASK_SWITCH, 0);
        }
        ts.loadedMm = next;
        ts.loadedMmAsid = newAsid;
        return cost;
    }

    /**
     * enter_lazy_tlb(): keep the old mm loaded, only mark the CPU lazy (a write of
     * cpu_tlbstate_shared.is_lazy, the line flush senders read). Returns its cost in ns.
     */
    public static long enterLazyTlb(KernelCpu cpu) {
        if (cpu.tlbState.loadedMm.isInitMm()) {
            return 0;
        }
        cpu.tlbState.isLazy = true;
        return cpu.writeLine(cpu.tlbstateSharedLine, cpu.kernel().engine().now());
    }
}
