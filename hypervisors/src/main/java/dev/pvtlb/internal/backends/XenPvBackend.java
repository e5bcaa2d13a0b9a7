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
