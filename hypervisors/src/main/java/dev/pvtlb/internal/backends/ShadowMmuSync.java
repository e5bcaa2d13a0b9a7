package dev.pvtlb.internal.backends;

import dev.pvtlb.smp.Cpu;
import dev.pvtlb.host.HypervisorFlush;
import dev.pvtlb.flush.FlushTlbInfo;

/**
 * KVM's shadow MMU bringing its entries up to date with the guest's page tables when the guest
 * flushes, as a PVM host does (the guest's PTE writes go to shadow pages KVM left unsync and
 * writable, mmu_try_to_unsync_pages(); the guest's flush hypercalls make KVM sync them).
 * <ul>
 * <li>PVM_HC_TLB_INVLPG (kvm_mmu_invlpg()): kvm_mmu_invalidate_addr() syncs the leaf entry of an
 * unsync page (kvm_sync_spte()); when that entry loses a permission or goes away (a W bit cleared,
 * a PTE cleared), mmu_spte_update() asks for a flush and KVM flushes every vCPU of the VM
 * (kvm_flush_remote_tlbs_sptep(), which without range flushing is kvm_flush_remote_tlbs()).</li>
 * <li>A full guest flush (KVM_REQ_TLB_FLUSH_GUEST: kvm_vcpu_flush_tlb_guest() under shadow paging
 * calls kvm_mmu_sync_roots()): mmu_sync_children() write-protects the unsync pages again and, as
 * they were writable, flushes every vCPU of the VM too (kvm_mmu_remote_flush_or_zap()).</li>
 * </ul>
 * The model: a guest flush whose PTE changes revoked something ({@link FlushTlbInfo#raisesOnly}
 * false) is synced the first time the host sees it (the initiator's hypercalls, the multi-target
 * hypercall, or a target's): one kvm_flush_remote_tlbs() per page flushed by INVLPG hypercalls,
 * as KVM flushes once per synced entry, and one for a sync of the roots. Each kicks the vCPUs
 * running guest code again: a kicked vCPU re-enters the guest within its exit, before the next
 * hypercall of the same flush. On the machine pvtlb was developed on (a PVM guest) a lone munmap
 * of 16 pages, flushed page by page, took 3.6 times as long as one of 64 pages, flushed whole
 * (`pvtlb calibrate`: 371638 vs 104103 ns, medians of 1000 and 878): a cost per page flushed that
 * only a per-entry host flush explains. Left out: the write-protect fault of the first PTE write
 * after a sync, the sync's own walk, and the mmu_lock the sync holds against the other vCPUs'
 * shadow page faults.
 */
final class ShadowMmuSync {
    private final HypervisorFlush host;
    /** The last guest flush synced (a request reaches the host once per CPU it flushes). */
    private FlushTlbInfo synced;

    ShadowMmuSync(HypervisorFlush host) {
        this.host = host;
    }

    /**
     * The host syncs {@code info} on behalf of {@code cpu}, {@code pages} entries one by one
     * (INVLPG hypercalls) or the whole roots ({@link FlushTlbInfo#FLUSH_ALL}); returns what that
     * costs {@code cpu}.
     */
    long sync(Cpu cpu, FlushTlbInfo info, long pages) {
        if (info == synced || info.raisesOnly) {
            return 0;
        }
        synced = info;
        long flushes = pages == FlushTlbInfo.FLUSH_ALL ? 1 : pages;
        long cost = 0;
        for (long i = 0; i < flushes; i++) {
            cost += host.flushRemoteTlbs(cpu, i == 0);
        }
        return cost;
    }
}
