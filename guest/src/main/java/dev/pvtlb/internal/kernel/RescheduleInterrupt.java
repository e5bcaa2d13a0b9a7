package dev.pvtlb.internal.kernel;

import dev.pvtlb.stats.TimeCategory;

/**
 * sysvec_reschedule_ipi(): the interrupt a waker sends to the CPU of a task it woke
 * (ttwu_queue_wakelist / resched_curr -> smp_send_reschedule). Its work is the interrupt's entry
 * and exit; the CPU's idle loop then finds the task in its run queue.
 */
final class RescheduleInterrupt extends InternalPath {
    @Override
    public long step(KernelCpu cpu) {
        cpu.ret();
        return cpu.kernel().costs().irqEntryExitNs;
    }

    @Override
    public TimeCategory category() {
        return TimeCategory.KERNEL;
    }

    @Override
    public String name() {
        return "sysvec_reschedule_ipi";
    }
}
