package dev.pvtlb.internal.kernel;

import dev.pvtlb.stats.CostPart;
import dev.pvtlb.stats.TimeCategory;

/**
 * The call-function IPI handler (generic_smp_call_function_interrupt ->
 * __flush_smp_call_function_queue): with IRQs off, take the whole queue (llist_del_all), run
 * each csd's function and release its lock so the initiator's csd_lock_wait ends.
 * One instance per CPU: the handler never nests, since it runs with IRQs off. The csds it took
 * wait in the CPU's {@link CpuInterrupts#callFunctionBatch}.
 */
final class CallFunctionInterrupt extends InternalPath {
    @Override
    public long step(KernelCpu cpu) {
        long half = cpu.kernel().costs().irqEntryExitNs / 2;
        if (pc == 0) {
            cpu.interrupts().disable();
            cpu.interrupts().callFunctionBatch.addAll(cpu.interrupts().callSingleQueue);
            cpu.interrupts().callSingleQueue.clear();
            pc = 1;
            // llist_del_all(): an xchg on the queue head, which senders' llist_add() also write.
            long cost = half + cpu.lines.write(cpu.lines.callSingleQueue, cpu.kernel().engine().now() + half);
            cpu.kernel().ledger().addNs(CostPart.TARGET_IRQ, cost);
            return cost;
        }
        Csd csd = cpu.interrupts().callFunctionBatch.poll();
        if (csd != null) {
            // Read the csd (func, info) from its sender's cache; csd_unlock() then takes the line back
            // from the sender, whose csd_lock() and csd_lock_wait() touched it.
            CpuLines sender = ((KernelCpu) csd.from).lines; // the csd lives in its sender's per-CPU cfd
            long csdCost = cpu.lines.from(sender) + cpu.kernel().costs().csdRunNs + cpu.lines.from(sender);
            cpu.kernel().ledger().addNs(CostPart.TARGET_CSD, csdCost);
            long cost = csdCost + csd.func.run(cpu);
            csd.done.accept(cpu);
            return cost;
        }
        Speculation speculation = cpu.kernel().speculation();
        if (speculation != null && cpu.tlbState.isLazy) {
            // The functions have run and the csds are released; the exit runs on the lazy CR3.
            speculation.leavingInterrupt(cpu, cpu.tlbState, cpu.localTlb());
        }
        cpu.interrupts().enable();
        cpu.ret();
        cpu.kernel().ledger().addNs(CostPart.TARGET_IRQ, half);
        return half;
    }

    @Override
    public TimeCategory category() {
        return TimeCategory.FLUSH_HANDLER;
    }

    @Override
    public String name() {
        return "generic_smp_call_function_interrupt";
    }
}
