package dev.pvtlb.internal.backends;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.internal.host.HostFlush;
import dev.pvtlb.internal.host.HypercallIpi;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.pvops.TlbGather;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;

/**
 * Xen PV: xen_flush_tlb_multi() (arch/x86/xen/mmu_pv.c) issues one MMUEXT_TLB_FLUSH_MULTI
 * multicall for the online CPUs of the mask, or MMUEXT_INVLPG_MULTI when exactly one page
 * is flushed. No lazy filtering. The hypervisor flushes the pCPUs running the named vCPUs
 * without a guest interrupt (so a vCPU with IRQs off is flushed too) and flushes vCPUs not
 * running before they next run. IPIs go through event channels, one hypercall per target.
 */
public final class XenPvBackend extends GuestTableFree {
    private final HostFlush hostFlush;

    XenPvBackend(Kernel guest) {
        super(guest.knobs());
        this.hostFlush = new HostFlush(guest);
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu view, CpuMask mask, FlushTlbInfo info) {
        KernelCpu cpu = (KernelCpu) view;
        cpu.call(new OneStep("xen_flush_tlb_multi", c -> {
            boolean onePage = !info.isFullFlush() && info.end - info.start <= 4096;
            Costs costs = c.kernel().costs();
            return hostFlush.flushByHypercall(c, mask, info, onePage ? HostFlush.Scope.PAGES : HostFlush.Scope.ALL,
                    onePage ? info.pages() * costs.invlpgNs : costs.fullFlushNs);
        }));
    }

    /**
     * ___pte_free_tlb() (and the pmd and pud ones) call paravirt_release_pte() before
     * tlb_remove_table(): xen_release_ptpage() unpins the table and makes it writable again,
     * and Xen flushes every vCPU that may still cache it before the guest can write the frame
     * ({@link HostFlush#pageTypeChangeFlush}). So in a PV guest a freed table is never walked
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
            XenPvBackend b = new XenPvBackend(Kernel.of(facade));
            // Event channels: one hypercall per target.
            return Attachment.of(b).withIpiDelivery(new HypercallIpi(true)).withVcpuHost(b.hostFlush.host());
        }
    }
}
