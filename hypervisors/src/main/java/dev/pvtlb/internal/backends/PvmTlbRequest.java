package dev.pvtlb.internal.backends;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.host.HypervisorFlush;

/**
 * What a PVM host does to one vCPU's TLB when the guest asks it to flush, and what that costs.
 * PVM (the Pagetable-based Virtual Machine: KVM with the guest kernel deprivileged to ring 3 and
 * shadow page tables built by KVM's shadow MMU) tags each vCPU's hardware translations with a
 * host PCID per shadow root (virt-pvm/linux arch/x86/kvm/pvm/pvm.c, guest_pcid_to_host_pcid()).
 * <ul>
 * <li><b>A range</b> (PVM_HC_TLB_INVLPG per page, handle_hc_invlpg() -> kvm_mmu_invlpg()): KVM walks
 * the shadow tables for the address, syncs an unsync leaf entry, and pvm_flush_hwtlb_gva() runs an
 * INVPCID on the current root and on each of the KVM_MMU_NUM_PREV_ROOTS cached roots ("PVM_HC_TLB_INVLPG
 * is for every tag"). Priced as one {@code invlpg.ns} per root per page.</li>
 * <li><b>Everything</b> (PVM_HC_TLB_FLUSH, handle_hc_flush_tlb_all(): KVM_REQ_TLB_FLUSH_GUEST):
 * on the vCPU's next entry kvm_vcpu_flush_tlb_guest() syncs the shadow roots
 * (kvm_mmu_sync_roots(), kvm_mmu_sync_prev_roots()) and the vCPU enters with a fresh ASID
 * (pvm_flush_hwtlb() resets asid_generation; update_asid()), i.e. one CR3 load that flushes:
 * {@code flush.full.ns}. The sync's walk of unsync shadow pages is not priced: its cost grows
 * with the guest page tables written since the last sync, which the model does not track.</li>
 * </ul>
 */
record PvmTlbRequest(long invlpgNs, long fullFlushNs) {
    /**
     * KVM_MMU_NUM_PREV_ROOTS (arch/x86/include/asm/kvm_host.h): the cached roots besides the
     * current one that pvm_flush_hwtlb_gva() invalidates too. virt-pvm makes it a module
     * parameter (prev_roots_num) whose upstream default is this.
     */
    static final int PREV_ROOTS = 3;

    /** Whether the host flushes {@code info} page by page (else the whole vCPU). */
    static boolean byPage(FlushTlbInfo info) {
        return !info.isFullFlush();
    }

    /** The host's work on one target vCPU for {@code info}. */
    long targetCost(FlushTlbInfo info) {
        return cost(byPage(info) ? info.pages() : FlushTlbInfo.FLUSH_ALL);
    }

    /** The host's work on one vCPU for {@code pages} pages, or everything ({@link FlushTlbInfo#FLUSH_ALL}). */
    long cost(long pages) {
        return pages == FlushTlbInfo.FLUSH_ALL ? fullFlushNs : pages * (1 + PREV_ROOTS) * invlpgNs;
    }

    /** The host flush scope {@link HypervisorFlush} applies for {@code info}. */
    static HypervisorFlush.Scope scope(FlushTlbInfo info) {
        return byPage(info) ? HypervisorFlush.Scope.PAGES : HypervisorFlush.Scope.ALL;
    }
}
