package dev.pvtlb.stats;

import java.util.List;

/**
 * Where a remote flush's time goes, as the cost breakdown of a run reports it. The initiator's
 * wait for its slowest target is the {@link TimeCategory#IPI_WAIT} time; these are the parts the
 * model charges as work, and {@link #IPI_DELIVERY}, how long the IPIs waited at their targets.
 * {@link #LINE_TRANSFERS} is a view across the others (a line transfer is also part of the step
 * that made it), so it is not added to them; the {@code line_transfers.*} parts after it divide it
 * by the data the lines hold, so that a run shows which shared line its transfers went to.
 */
public enum CostPart {
    /** flush_tlb_mm_range(): the tlb_gen increment, filling flush_tlb_info, reading mm_cpumask. */
    FLUSH_SETUP("flush_setup", "initiator: tlb_gen increment, flush_tlb_info, mm_cpumask read"),
    /** smp_call_function_many_cond() before the wait: should_flush_tlb reads, csd_lock, llist_add, the IPIs. */
    FLUSH_SEND("flush_send", "initiator: per target should_flush_tlb read, csd_lock, llist_add; IPI sends"),
    /** The initiator's own flush_tlb_func(). */
    FLUSH_LOCAL("flush_local", "initiator: its own flush_tlb_func"),
    /**
     * From a call-function IPI's arrival at a target until its handler starts: the target had
     * IRQs off (a spinlock taken with spin_lock_irqsave(), a gup_fast walk) or, on a host, its
     * vCPU was not running. A latency, not work, summed over targets: a sender waiting on several
     * waits through the longest, and a concurrent flush (native_flush_tlb_multi()) overlaps it with
     * its own work, so it is not part of ipi_wait.
     */
    IPI_DELIVERY("ipi_delivery", "targets: from an IPI's arrival to its handler (IRQs off, vCPU descheduled); latency, summed per target"),
    /**
     * The initiator's wait, from its call of smp_call_function_many_cond() to the last target's
     * csd_unlock(), filed under the state that last target was in when its csd was queued (one of
     * the five below): what a slow flush waited on. A latency per call, like {@link #IPI_DELIVERY};
     * under overcommit it tells a preempted target from a spinlock waiter halted with IRQs off.
     */
    WAIT_LAST_RUNNING("wait_last_running", "initiator: call to last csd_unlock, the last target running with IRQs on at the send"),
    /** As {@link #WAIT_LAST_RUNNING}, the last target running with IRQs off (a spinlock held or spun on with IRQs off). */
    WAIT_LAST_IRQS_OFF("wait_last_irqs_off", "initiator: call to last csd_unlock, the last target running with IRQs off at the send"),
    /** As {@link #WAIT_LAST_RUNNING}, the last target's vCPU descheduled by the host. */
    WAIT_LAST_DESCHEDULED("wait_last_descheduled", "initiator: call to last csd_unlock, the last target's vCPU descheduled at the send"),
    /** As {@link #WAIT_LAST_RUNNING}, the last target halted with IRQs on (its idle loop). */
    WAIT_LAST_HALTED("wait_last_halted", "initiator: call to last csd_unlock, the last target halted (idle) at the send"),
    /** As {@link #WAIT_LAST_RUNNING}, the last target halted with IRQs off: a spinlock waiter in pv_wait() until its kick. */
    WAIT_LAST_HALTED_IRQS_OFF("wait_last_halted_irqs_off",
            "initiator: call to last csd_unlock, the last target halted with IRQs off (pv_wait) at the send"),
    /** Interrupt entry and exit of the call-function IPI, and the llist_del_all of the queue. */
    TARGET_IRQ("target_irq", "targets: interrupt entry and exit, llist_del_all"),
    /** Reading each queued csd from its sender's cache, running it, csd_unlock. */
    TARGET_CSD("target_csd", "targets: csd read, call, csd_unlock"),
    /** flush_tlb_func() on a target: INVLPGs or a full flush, the tlb_gen and flush_tlb_info reads. */
    TARGET_FLUSH("target_flush", "targets: flush_tlb_func (INVLPG or CR3, tlb_gen and flush_tlb_info reads)"),
    /** Time on shared cache lines beyond a hit (transfers and queueing), on every CPU; included in the parts above. */
    LINE_TRANSFERS("line_transfers", "all CPUs: shared-line transfers and queueing beyond a hit (part of the rows above)"),
    /** Of {@link #LINE_TRANSFERS}: the mm's mmap_lock, whose count word every reader and writer updates (rwsem). */
    LINES_MMAP_LOCK("line_transfers.mmap_lock", "of line_transfers: the mm's mmap_lock (the rwsem's count)"),
    /** Of {@link #LINE_TRANSFERS}: the mm's mm_cpumask, set by switch_mm and read by every flush. */
    LINES_MM_CPUMASK("line_transfers.mm_cpumask", "of line_transfers: the mm's mm_cpumask"),
    /** Of {@link #LINE_TRANSFERS}: the mm's tlb_gen, incremented by every flush and read by its targets. */
    LINES_TLB_GEN("line_transfers.tlb_gen", "of line_transfers: the mm's tlb_gen"),
    /** Of {@link #LINE_TRANSFERS}: per-CPU data other CPUs touch: call_single_queue, csds, is_lazy, flush_tlb_info, idle flags. */
    LINES_PER_CPU("line_transfers.per_cpu", "of line_transfers: call_single_queue, csds, is_lazy, flush_tlb_info, idle flags"),
    /** Of {@link #LINE_TRANSFERS}: the lock words of spinlocks (zone->lock, lru_lock). */
    LINES_SPINLOCKS("line_transfers.spinlocks", "of line_transfers: spinlock words (zone->lock, lru_lock)"),
    /** Of {@link #LINE_TRANSFERS}: data those spinlocks guard: the LRU's links (struct pages) and counters, free list heads. */
    LINES_LOCKED_DATA("line_transfers.locked_data", "of line_transfers: data under the page locks: LRU links and counters, free lists"),
    /** Page walks of user accesses that missed the TLB. */
    TLB_REFILLS("tlb_refill_walks", "all CPUs: page walks of user accesses that missed the TLB");

    public final String key;
    public final String description;

    /** The five waits {@link #waitOn} chooses among, in table order. */
    public static final List<CostPart> WAITS_ON_LAST_TARGET = List.of(WAIT_LAST_RUNNING, WAIT_LAST_IRQS_OFF,
            WAIT_LAST_DESCHEDULED, WAIT_LAST_HALTED, WAIT_LAST_HALTED_IRQS_OFF);

    /**
     * Which of the five waits a call goes under: the state of the target that answered last, as it
     * was when its csd was queued (halted first: a halted vCPU may also be descheduled).
     */
    public static CostPart waitOn(boolean halted, boolean vcpuRunning, boolean irqsOff) {
        if (halted) {
            return irqsOff ? WAIT_LAST_HALTED_IRQS_OFF : WAIT_LAST_HALTED;
        }
        if (!vcpuRunning) {
            return WAIT_LAST_DESCHEDULED;
        }
        return irqsOff ? WAIT_LAST_IRQS_OFF : WAIT_LAST_RUNNING;
    }

    CostPart(String key, String description) {
        this.key = key;
        this.description = description;
    }
}
