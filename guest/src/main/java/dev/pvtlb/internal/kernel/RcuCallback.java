package dev.pvtlb.internal.kernel;

import dev.pvtlb.smp.Cpu;

/**
 * A call_rcu() callback (struct rcu_head's func): invoked by rcu_do_batch() from RCU_SOFTIRQ on
 * the CPU that queued it, once a grace period has ended. Returns what the invocation costs that
 * CPU, in ns, beyond the softirq's own per-callback work (rcu.callback.ns).
 */
@FunctionalInterface
public interface RcuCallback {
    long invoke(Cpu cpu);
}
