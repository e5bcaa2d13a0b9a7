package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.CallFunction;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuCondition;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.CostPart;
import dev.pvtlb.stats.TimeCategory;
import dev.pvtlb.pvops.InjectedBug;

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
    private KernelCpu initiator;
    private int outstanding;
    /**
     * Whether the IPI goes by the single-target path (Kernel.sendCallFunctionIpis): one IPI since
     * the concurrent-flush series, one target queued before it. Decided once every csd is queued.
     */
    private boolean singlePath;
    /** When the initiator called: the start of the wait the last target's state is charged with. */
    private long calledAt;
    /** Each queued target's state at the send, as the wait it would stand for (by CPU id). */
    private CostPart[] waitOn;
    /** Targets whose queue was empty: they get the IPI (step 1). */
    private KernelCpu[] ipi;
    private int nIpi;
    /** The target whose csd_unlock() ended the wait: csd_lock_wait() reads that line last. */
    private Cpu lastDone;
    /** Returned to the caller (before the targets finished only under inject=scf-no-wait). */
    private boolean returned;
    /** csd_unlock() by a target, as each csd carries it. */
    private final java.util.function.Consumer<Cpu> complete = this::complete;

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
                ipi = new KernelCpu[mask.weight()];
                nIpi = 0;
                long now = cpu.kernel().engine().now();
                calledAt = now;
                // Before the concurrent-flush series (5.13), on_each_cpu_cond_mask() first built the
                // target mask in a loop of its own, plain loads of each target's is_lazy that the core
                // overlaps; since, smp_call_function_many_cond() tests each target between the locked
                // llist_add()s, which the next load waits for.
                boolean readsFirst = cond != null && !cpu.kernel().knobs().concurrentFlush;
                long cost = readsFirst ? condReads(cpu, all, now) : 0;
                for (int c = mask.next(0); c >= 0; c = mask.next(c + 1)) {
                    KernelCpu t = all[c];
                    if (t == cpu || !t.online()) {
                        continue;
                    }
                    if (cond != null) {
                        // The condition (should_flush_tlb) reads the target's cpu_tlbstate_shared line.
                        if (!readsFirst) {
                            cost += cpu.lines.read(t.lines.tlbstateShared, now + cost);
                        }
                        if (!cond.test(t)) {
                            continue;
                        }
                    }
                    outstanding++;
                    // csd_lock() on the csd for t (last written by t's csd_unlock), then llist_add()
                    // on t's call_single_queue: a locked cmpxchg other senders may be queued on.
                    cost += cpu.lines.from(t.lines);
                    cost += cpu.lines.write(t.lines.callSingleQueue, now + cost);
                    if (waitOn == null) {
                        waitOn = new CostPart[all.length];
                    }
                    waitOn[c] = CostPart.waitOn(t.isHalted(), t.vcpuRunning(), t.irqsDisabled());
                    if (t.interrupts().queueCsd(cpu, func, complete)) {
                        ipi[nIpi++] = t;
                    }
                }
                singlePath = cpu.kernel().knobs().concurrentFlush ? nIpi == 1 : outstanding == 1;
                pc = 1;
                cpu.kernel().ledger().addNs(CostPart.FLUSH_SEND, cost);
                return cost;
            }
            case 1 -> {
                // After every csd is queued, as the kernel does it, by the single-target path or
                // send_call_function_ipi_mask().
                pc = 2;
                long cost = nIpi == 0 ? 0 : cpu.kernel().ipis().callFunction(cpu, ipi, nIpi, singlePath);
                ipi = null;
                cpu.kernel().ledger().addNs(CostPart.FLUSH_SEND, cost);
                return cost;
            }
            case 2 -> {
                pc = 3;
                if (runLocal && mask.test(cpu.id) && (cond == null || cond.test(cpu))) {
                    long cost = func.run(cpu);
                    cpu.kernel().ledger().addNs(CostPart.FLUSH_LOCAL, cost);
                    return cost;
                }
                return waitStep(cpu);
            }
            default -> {
                return waitStep(cpu);
            }
        }
    }

    /**
     * The pre-5.13 mask-building loop: one load of each target's is_lazy line, as many in flight
     * at once as the core has fill buffers ({@code line.fill_buffers}); each group costs its
     * slowest load.
     */
    private long condReads(KernelCpu cpu, KernelCpu[] all, long now) {
        int inFlight = cpu.kernel().costs().lineFillBuffers;
        long cost = 0;
        long group = 0;
        int n = 0;
        for (int c = mask.next(0); c >= 0; c = mask.next(c + 1)) {
            KernelCpu t = all[c];
            if (t == cpu || !t.online()) {
                continue;
            }
            group = Math.max(group, cpu.lines.read(t.lines.tlbstateShared, now + cost));
            if (++n == inFlight) {
                cost += group;
                group = 0;
                n = 0;
            }
        }
        return cost + group;
    }

    private long waitStep(KernelCpu cpu) {
        if (outstanding > 0 && cpu.kernel().knobs().bug != InjectedBug.SCF_NO_WAIT) {
            return BLOCK;
        }
        returned = true;
        cpu.ret();
        // csd_lock_wait() sees the last unlock only once that csd's line has come back.
        return lastDone == null ? 0 : cpu.lines.from(((KernelCpu) lastDone).lines);
    }

    /**
     * csd_unlock() by a target: the last one lets the initiator's wait end, and the wait goes under
     * the state that target had at the send ({@link CostPart#waitOn}).
     */
    void complete(Cpu by) {
        if (outstanding == 1) {
            initiator.kernel().ledger().addNs(waitOn[by.id()], initiator.kernel().engine().now() - calledAt);
        }
        lastDone = by;
        if (--outstanding == 0 && !returned) {
            initiator.wake();
        }
    }

    @Override
    public TimeCategory category() {
        return pc == 3 ? TimeCategory.IPI_WAIT : TimeCategory.KERNEL;
    }

    @Override
    public String name() {
        return name;
    }
}
