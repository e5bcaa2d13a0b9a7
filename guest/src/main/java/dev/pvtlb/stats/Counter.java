package dev.pvtlb.stats;

/**
 * Event counters. The first four are the kernel's vmstat TLB events
 * (include/linux/vm_event_item.h, CONFIG_DEBUG_TLBFLUSH); the rest are pvtlb's own.
 */
public enum Counter {
    NR_TLB_REMOTE_FLUSH("nr_tlb_remote_flush"),
    NR_TLB_REMOTE_FLUSH_RECEIVED("nr_tlb_remote_flush_received"),
    NR_TLB_LOCAL_FLUSH_ALL("nr_tlb_local_flush_all"),
    NR_TLB_LOCAL_FLUSH_ONE("nr_tlb_local_flush_one"),
    IPIS_SENT("ipis_sent"),
    IPIS_RECEIVED("ipis_received"),
    HYPERCALLS("hypercalls"),
    VMEXITS("vmexits"),
    TLB_MISSES("tlb_misses"),
    PAGE_FAULTS("page_faults"),
    CONTEXT_SWITCHES("context_switches"),
    /** switch_mm_irqs_off() loaded CR3 with a flush (TLB_FLUSH_ON_TASK_SWITCH, TLB_FLUSH_ALL). */
    SWITCH_MM_FLUSHES("switch_mm_flushes"),
    TABLES_FREED("page_tables_freed"),
    RCU_GRACE_PERIODS("rcu_grace_periods"),
    /** A vCPU's TLB flushed by the hypervisor (Xen PV multicall, Hyper-V flush hypercall, KVM FLUSH_TLB at entry). */
    HYPERVISOR_FLUSHES("hypervisor_flushes"),
    /** Flush requests left for the host to apply at a vCPU's next entry instead of an IPI or a remote flush now. */
    DEFERRED_FLUSHES("deferred_flushes"),
    /** Broadcast invalidations issued (arm64 TLBI ...IS, AMD INVLPGB), each reaching every CPU. */
    BROADCAST_FLUSHES("broadcast_flushes"),
    /** Intel RAR remote action requests sent (one per target CPU). */
    REMOTE_ACTION_REQUESTS("remote_action_requests"),
    /** A paravirt flush that fell back to native_flush_tlb_multi() (e.g. Hyper-V without the _Ex hypercalls beyond VP 63). */
    NATIVE_FALLBACKS("native_fallbacks"),
    /** The host descheduled a runnable vCPU (its time slice ended while another vCPU waited). */
    VCPU_PREEMPTIONS("vcpu_preemptions"),
    /** Pause-loop exits: a vCPU spun past the PLE window (KVM handle_pause()). */
    PLE_EXITS("ple_exits"),
    /** Directed yields the host made (yield_to() from kvm_vcpu_on_spin() or KVM_HC_SCHED_YIELD). */
    DIRECTED_YIELDS("directed_yields"),
    /** A halted vCPU woken while the host still polled for it (halt_poll_ns): no schedule, no VM entry. */
    HALT_POLL_WAKEUPS("halt_poll_wakeups"),
    /** Tasks that slept on mm->mmap_lock (rwsem_down_read_slowpath / rwsem_down_write_slowpath). */
    MMAP_LOCK_WAITS("mmap_lock_waits"),
    /** The host moved a vCPU thread to another pCPU (host.balance=idle: wake-up placement, newly idle balancing). */
    VCPU_MIGRATIONS("vcpu_migrations"),
    /** Guest tasks moved to another CPU by the guest's scheduler (sched.balance; perf's cpu-migrations). */
    MIGRATIONS("migrations"),
    /**
     * Of ipis_sent, the reschedule IPIs (smp_send_reschedule(): a task woken onto a halted CPU, a
     * sleeper on mmap_lock among them; /proc/interrupts' RES line), which flush no TLB.
     */
    RESCHEDULE_IPIS("resched_ipis"),
    /**
     * Tasks woken onto an idle CPU without an IPI: on x86 bare metal the idle loop's MWAIT monitors
     * its thread flags, and the store of TIF_NEED_RESCHED wakes it (sched_wake_idle_without_ipi).
     */
    WAKE_IDLE_WITHOUT_IPI("wake_idle_without_ipi"),
    /**
     * Spinlock waiters that gave up spinning and halted in pv_wait() (kvm_wait(), after
     * SPIN_THRESHOLD turns or behind a halted predecessor, kernel/locking/qspinlock_paravirt.h);
     * each is woken by the unlocker's kick, KVM_HC_KICK_CPU, which is what makes it a vCPU
     * kvm_vcpu_wake_up() marks ready (d73eb57b80b9).
     */
    PV_WAIT_HALTS("pv_wait_halts");

    public final String key;

    Counter(String key) {
        this.key = key;
    }
}
