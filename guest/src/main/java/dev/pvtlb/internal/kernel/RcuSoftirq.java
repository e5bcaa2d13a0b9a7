package dev.pvtlb.internal.kernel;

import java.util.ArrayDeque;

/**
 * RCU_SOFTIRQ on one CPU: rcu_core() -> rcu_do_batch() invokes the callbacks this CPU queued
 * with call_rcu() whose grace period has ended (Tree RCU keeps callbacks on the queuing CPU's
 * rcu_data). It runs at the CPU's next step boundary with IRQs on, as a softirq runs on
 * irq_exit() or local_bh_enable(); one callback a step, each costing rcu.callback.ns (the
 * softirq's bookkeeping and the indirect call) plus what the callback does. The ready callbacks
 * wait in the CPU's {@link CpuInterrupts#rcuReady} (raising the softirq).
 */
final class RcuSoftirq extends InternalPath {
    @Override
    public long step(KernelCpu cpu) {
        ArrayDeque<RcuCallback> ready = cpu.interrupts().rcuReady;
        RcuCallback cb = ready.poll();
        if (ready.isEmpty()) {
            cpu.ret();
        }
        return cb == null ? 0 : cpu.kernel().costs().rcuCallback.ns() + cb.invoke(cpu);
    }

    @Override
    public String name() {
        return "rcu_do_batch";
    }
}
