package dev.pvtlb.internal.backends;

import dev.pvtlb.host.HypervisorFlush;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.pvops.TlbGather;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.CpuMask;

/**
 * Xen PV: xen_flush_tlb_multi() (arch/x86/xen/mmu_pv.c) issues one MMUEXT_TLB_FLUSH_MULTI
 * multicall for the online CPUs of the mask, or MMUEXT_INVLPG_MULTI when exactly one page
 * is flushed. No lazy filtering. The hypervisor flushes the pCPUs running the named vCPUs
 * without a guest interrupt (so a vCPU with IRQs off is flushed too) and flushes vCPUs not
 * running before they next run. IPIs go through event channels, one hypercall per target.
 */
public final class XenPvBackend extends GuestTableFree {
    private final HypervisorFlush hostFlush;
    /** invlpg.ns and flush.full.ns: the host's flush of each target, one page or everything. */
    private final long invlpgNs;
    private final long fullFlushNs;

    XenPvBackend(BackendContext guest) {
        super(guest.knobs());
        this.hostFlush = guest.hypervisorFlush();
        this.invlpgNs = guest.profile().ns("invlpg.ns");
        this.fullFlushNs = guest.profile().ns("flush.full.ns");
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        cpu.call(KernelPath.oneStep("xen_flush_tlb_multi", c -> {
            boolean onePage = !info.isFullFlush() && info.end - info.start <= 4096;
            return hostFlush.flushByHypercall(c, mask, info, onePage ? HypervisorFlush.Scope.PAGES : HypervisorFlush.Scope.ALL,
                    onePage ? info.pages() * invlpgNs : fullFlushNs);
        }));
    }

    /**
     * ___pte_free_tlb() (and the pmd and pud ones) call paravirt_release_pte() before
     * tlb_remove_table(): xen_release_ptpage() unpins the table and makes it writable again,
     * and Xen flushes every vCPU that may still cache it before the guest can write the frame
     * ({@link HypervisorFlush#pageTypeChangeFlush}). So in a PV guest a freed table is never walked
     * through a stale paging-structure entry, whatever the guest flushes itself; a software walk
     * (gup_fast) is not a TLB and is not protected by this.
     */
    @Override
    @PvOp("tlb_remove_table")
    public void tlbRemoveTable(Cpu cpu, TlbGather tlb, int table) {
        hostFlush.pageTypeChangeFlush();
        super.tlbRemoveTable(cpu, tlb, table);
    }

    public static final class Provider extends BackendProvider {
        public Provider() {
            super("xen-pv", "Xen PV guest: flushes by MMUEXT_TLB_FLUSH_MULTI / INVLPG_MULTI multicall, no guest interrupt", true);
        }

        @Override
        public Object attach(BackendContext facade, Knobs knobs) {
            XenPvBackend b = new XenPvBackend(facade);
            // Event channels: one hypercall per target.
            return Attachment.of(b).withIpiDelivery(facade.hypercallIpi(true)).withVcpuHost(b.hostFlush.vcpuHost());
        }
    }
}
