package dev.pvtlb.internal.backends;

import dev.pvtlb.host.HypervisorFlush;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.CpuMask;

/**
 * A PVM guest (Pagetable-based Virtual Machine, Ant Group; RFC "KVM: x86/PVM" by Lai Jiangshan,
 * 2024, kept at virt-pvm/linux). The guest kernel runs in ring 3 on shadow page tables, so every
 * privileged TLB operation is a hypercall (arch/x86/kernel/pvm.c, pvm_early_setup():
 * pv_ops.mmu.flush_tlb_user = PVM_HC_TLB_FLUSH_CURRENT, flush_tlb_kernel = PVM_HC_TLB_FLUSH,
 * flush_tlb_one_user = PVM_HC_TLB_INVLPG). Remote flushes, by {@code pvm.remoteFlush}:
 * <ul>
 * <li>{@code hypercall} (the default): one PVM_HC_FLUSH_TLB_MULTI hypercall carrying the cpumask
 * and the range, as the guest kernel of the machine pvtlb was developed on reports at boot
 * ("pvm-pv: remote TLB flushes via PVM_HC_FLUSH_TLB_MULTI"). That hypercall is not in the public
 * series, so its host side is modelled on the public host's handling of the single-vCPU flush
 * hypercalls (arch/x86/kvm/pvm/pvm.c, handle_hc_flush_tlb_all(), handle_hc_invlpg()) applied to
 * each target as KVM applies a request to a vCPU set (kvm_make_vcpus_request_mask() with
 * KVM_REQ_TLB_FLUSH_GUEST, which waits for running targets to exit): a running target is kicked
 * out of the guest and flushed before it re-enters, whatever its IRQ state; one not running is
 * flushed at its next entry. What each target costs is {@link PvmTlbRequest}'s.</li>
 * <li>{@code ipi}: the public guest, which leaves flush_tlb_multi at native_flush_tlb_multi(), so
 * targets get call-function IPIs; the IPI goes out as one KVM_HC_SEND_IPI hypercall (PVM passes
 * any number outside its own range to KVM's hypercalls: Documentation/virt/kvm/x86/pvm-spec.rst).
 * The targets' INVLPGs are then PVM_HC_TLB_INVLPG hypercalls (below).</li>
 * </ul>
 * A CPU flushing its own translations (flush_tlb_func(), locally or for an IPI) calls
 * pv_ops.mmu.flush_tlb_one_user per page, PVM_HC_TLB_INVLPG, or flush_tlb_user for everything,
 * PVM_HC_TLB_FLUSH_CURRENT: a hypercall each, and the host's work of {@link PvmTlbRequest}.
 * Guest page-table writes reach the shadow tables through unsync shadow pages synced at the
 * flush (KVM's shadow MMU, mmu_try_to_unsync_pages()); a sync that revokes a permission flushes
 * every vCPU of the VM ({@link ShadowMmuSync}). The write-protect faults and the sync walk are
 * not charged (see PvmTlbRequest).
 */
public final class PvmBackend extends GuestTableFree {
    static final KnobSpec REMOTE_FLUSH = KnobSpec.choice("pvm.remoteFlush", "hypercall",
            "how the guest flushes other vCPUs: hypercall (one PVM_HC_FLUSH_TLB_MULTI with mask and range; the host "
                    + "kicks running targets and flushes the rest at their next entry), ipi (the public guest: "
                    + "native_flush_tlb_multi() with a KVM_HC_SEND_IPI hypercall)",
            "hypercall", "ipi");

    private final BackendContext guest;
    private final HypervisorFlush hostFlush;
    private final ShadowMmuSync shadow;
    private final boolean byHypercall;
    private final PvmTlbRequest request;
    private final long hypercallNs;

    PvmBackend(BackendContext guest, Knobs k) {
        super(guest.knobs());
        this.guest = guest;
        this.hostFlush = guest.hypervisorFlush();
        this.shadow = new ShadowMmuSync(hostFlush);
        this.byHypercall = k.get(REMOTE_FLUSH.name()).equals("hypercall");
        this.request = new PvmTlbRequest(guest.profile().ns("invlpg.ns"), guest.profile().ns("flush.full.ns"));
        this.hypercallNs = guest.profile().ns("hypercall.ns");
    }

    /**
     * pvm_flush_tlb_one_user() per page (PVM_HC_TLB_INVLPG) or pvm_flush_tlb_user()
     * (PVM_HC_TLB_FLUSH_CURRENT) on the CPU flushing itself: a hypercall each, the host's work on
     * this vCPU, and the shadow MMU's sync of the flush.
     */
    @PvOp("flush_tlb_user")
    public long flushTlbUser(Cpu cpu, FlushTlbInfo info, long pages, long nativeNs) {
        long calls = pages == FlushTlbInfo.FLUSH_ALL ? 1 : pages;
        guest.count(Counter.HYPERCALLS, calls);
        return calls * hypercallNs + request.cost(pages) + shadow.sync(cpu, info, pages);
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        if (!byHypercall) {
            guest.nativeFlushTlbMulti(cpu, mask, info);
            return;
        }
        cpu.call(KernelPath.oneStep("pvm_flush_tlb_multi", c -> hostFlush.flushByHypercall(c, mask, info,
                PvmTlbRequest.scope(info), request.targetCost(info))
                + shadow.sync(c, info, FlushTlbInfo.FLUSH_ALL)));
    }

    public static final class Provider extends BackendProvider {
        public Provider() {
            super("pvm", "PVM guest (shadow paging, ring-3 kernel): flushes by PVM_HC_FLUSH_TLB_MULTI, targets kicked or flushed at next entry",
                    true, REMOTE_FLUSH);
        }

        @Override
        public Object attach(BackendContext facade, Knobs knobs) {
            PvmBackend b = new PvmBackend(facade, knobs);
            // KVM_FEATURE_PV_SEND_IPI through PVM's KVM hypercall path: one hypercall per IPI bitmap.
            return Attachment.of(b).withIpiDelivery(facade.hypercallIpi(false)).withVcpuHost(b.hostFlush.vcpuHost());
        }
    }
}
