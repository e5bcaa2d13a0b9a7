package dev.pvtlb.pvops;

/**
 * A kernel-style bug planted in the model by the {@code inject} knob, one at a time: the mutation
 * test's way of asking whether a scenario can catch a broken flush (issue "safety fidelity": nine
 * bugs caught by the catalogue, one caught by the workloads, a tenth invisible without a
 * preemptible RCU). Each names the kernel code it breaks. Off ({@link #NONE}) by default; no
 * result changes unless a run sets it.
 */
public enum InjectedBug {
    NONE("none", "no bug"),
    /** flush_tlb_func(): the ranged flush's INVLPG loop (flush_tlb_one_user per page) is dropped. */
    RANGE_FLUSH_NO_INVLPG("range-flush-no-invlpg",
            "flush_tlb_func() updates its tlb_gen for a ranged flush but runs no INVLPG"),
    /** flush_tlb_mm_range(): inc_mm_tlb_gen() becomes a read, so the targets find themselves current. */
    TLB_GEN_NOT_BUMPED("tlb-gen-not-bumped",
            "flush_tlb_mm_range() reads mm->context.tlb_gen instead of incrementing it"),
    /** switch_mm_irqs_off(): cpumask_set_cpu(cpu, mm_cpumask(next)) is forgotten. */
    SWITCH_MM_NO_CPUMASK("switch-mm-no-cpumask",
            "switch_mm_irqs_off() does not set the CPU's bit in the next mm's mm_cpumask"),
    /** tlb_finish_mmu(): the gathered page tables are freed before tlb_flush_mmu_tlbonly(). */
    TABLES_FREED_BEFORE_FLUSH("tables-freed-before-flush",
            "the mmu_gather frees its page tables before the TLB flush"),
    /** record_steal_time(): KVM_VCPU_FLUSH_TLB is cleared on entry but kvm_vcpu_flush_tlb_guest() is not called. */
    KVM_ENTRY_DROPS_FLUSH("kvm-entry-drops-flush",
            "KVM's vCPU entry clears the steal-time flush request without flushing"),
    /** The hypervisor's flush hypercall forgets the targets that are not running (Xen, Hyper-V). */
    HOST_DROPS_DEFERRED_FLUSH("host-drops-deferred-flush",
            "the host's flush hypercall drops the flush owed to vCPUs that are not running"),
    /** should_flush_tlb(): lazy CPUs skipped even when tables were freed (as lazy=skip-nofree). */
    LAZY_SKIPS_FREED_TABLES("lazy-skips-freed-tables",
            "lazy CPUs are skipped although the flush freed page tables"),
    /** smp_call_function_many_cond(): csd_lock_wait() is not done (wait=false). */
    SCF_NO_WAIT("scf-no-wait",
            "smp_call_function_many() returns without waiting for the targets"),
    /** call_rcu(): the callback runs at once, with no grace period. */
    RCU_GP_INSTANT("rcu-gp-instant",
            "an RCU grace period ends at once"),
    /** tlb_remove_table(): call_rcu() on the table batch before the TLB flush instead of after it. */
    CALL_RCU_BEFORE_FLUSH("call-rcu-before-flush",
            "the table batch is handed to call_rcu() before the TLB flush (visible with rcu=preempt)");

    public final String value;
    public final String description;

    InjectedBug(String value, String description) {
        this.value = value;
        this.description = description;
    }

    public static InjectedBug of(String v) {
        for (InjectedBug b : values()) {
            if (b.value.equals(v)) {
                return b;
            }
        }
        throw new IllegalArgumentException(v);
    }

    static String[] names() {
        InjectedBug[] all = values();
        String[] n = new String[all.length];
        for (int i = 0; i < all.length; i++) {
            n[i] = all[i].value;
        }
        return n;
    }
}
