package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.CallFunction;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuCondition;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.TimeCategory;

/**
 * smp_call_function_many_cond() with wait=true (kernel/smp.c): queue a csd on each target
 * for which {@code cond} holds, IPI only the targets whose queue was empty (coalescing), run
 * the function locally if asked (SCF_RUN_LOCAL; after the IPIs are out, as the
 * concurrent-flush series arranged), then spin in csd_lock_wait with IRQs on until every
 * target has run it.
 */
public final class SmpCallFunctionMany extends KernelPath {
    private final CpuMask mask;
    private final CallFunction func;
    private final CpuCondition cond;
    private final boolean runLocal;
    private final String name;
    private Cpu initiator;
    private int outstanding;
    /** csd_unlock() by a target, as each csd carries it. */
    private final Runnable complete = this::complete;

    public SmpCallFunctionMany(String name, CpuMask mask, CallFunction func, CpuCondition cond, boolean runLocal) {
        this.name = name;
        this.mask = mask;
        this.func = func;
        this.cond = cond;
        this.runLocal = runLocal;
    }

    @Override
    public long step(Cpu view) {
        KernelCpu cpu = (KernelCpu) view;
        switch (pc) {
            case 0 -> {
                initiator = cpu;
                KernelCpu[] all = cpu.kernel().cpus();
                KernelCpu[] ipi = new KernelCpu[mask.weight()];
                int n = 0;
                for (int c = mask.next(0); c >= 0; c = mask.next(c + 1)) {
                    KernelCpu t = all[c];
                    if (t == cpu || !t.online() || (cond != null && !cond.test(t))) {
                        continue;
                    }
                    outstanding++;
                    if (t.queueCsd(func, complete)) {
                        ipi[n++] = t;
                    }
                }
                pc = 1;
                return n == 0 ? 0 : cpu.kernel().ipiDelivery().send(cpu, ipi, n);
            }
            case 1 -> {
                pc = 2;
                if (runLocal && mask.test(cpu.id) && (cond == null || cond.test(cpu))) {
                    return func.run(cpu);
                }
                return waitStep(cpu);
            }
            default -> {
                return waitStep(cpu);
            }
        }
    }

    private long waitStep(Cpu cpu) {
        if (outstanding > 0) {
            return BLOCK;
        }
        cpu.ret();
        return 0;
    }

    /** csd_unlock() by a target: the last one lets the initiator's wait end. */
    void complete() {
        if (--outstanding == 0) {
            initiator.wake();
        }
    }

    @Override
    public TimeCategory category() {
        return pc == 2 ? TimeCategory.IPI_WAIT : TimeCategory.KERNEL;
    }

    @Override
    public String name() {
        return name;
    }
}
