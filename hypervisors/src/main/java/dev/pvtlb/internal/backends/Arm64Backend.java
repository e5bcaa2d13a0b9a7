package dev.pvtlb.internal.backends;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.internal.kernel.NativeBackend;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;

/**
 * arm64 (arch/arm64/include/asm/tlbflush.h): flush_tlb_mm / __flush_tlb_range issue TLBI ASIDE1IS /
 * VAE1IS, broadcast in hardware to every CPU of the inner-shareable domain, then DSB ISH; no IPIs
 * and no mm_cpumask (arm64 does not maintain it). Each other CPU pays for processing every
 * broadcast TLBI, whether or not it ever ran the mm. A range above MAX_DVM_OPS pages is one ASID
 * flush. The alternative of Takao Indoh, "arm64: Introduce boot parameter to disable TLB flush
 * instruction within the same inner shareable domain",
 * lore.kernel.org/r/20190617143255.10462-1-indou.takao@jp.fujitsu.com, {@code arm64.flush=local},
 * invalidates with local TLBIs on the CPUs of mm_cpumask through IPIs, which is only correct while
 * mm_cpumask is maintained ({@code arm64.mmCpumask}).
 */
public final class Arm64Backend extends GuestTableFree {
    static final KnobSpec FLUSH = KnobSpec.choice("arm64.flush", "broadcast",
            "broadcast: TLBI ...IS reaches every CPU of the domain; local: IPI the CPUs of mm_cpumask, "
                    + "each invalidates locally (Takao Indoh, LKML 2019-06-17)",
            "broadcast", "local");
    static final KnobSpec MM_CPUMASK = KnobSpec.choice("arm64.mmCpumask", "tracked",
            "tracked: switch_mm maintains mm_cpumask; stale: it stops doing so, as when no flush relied on it",
            "tracked", "stale");

    private final boolean broadcast;

    Arm64Backend(Kernel guest, Knobs k) {
        super(guest.knobs());
        this.broadcast = k.get(FLUSH.name()).equals("broadcast");
    }

    /**
     * The broadcast path: every CPU of the domain invalidates and pays for each DVM operation and
     * for the DSB's Sync; the initiator waits in DSB ISH for the slowest of them
     * ({@link DvmBroadcastCost}, as a function of the domain's size).
     */
    @PvOp("flush_tlb_broadcast")
    public boolean flushTlbBroadcast(Cpu view, FlushTlbInfo info) {
        KernelCpu cpu = (KernelCpu) view;
        if (!broadcast) {
            return false;
        }
        cpu.call(new OneStep("__flush_tlb_range", c -> {
            Kernel g = c.kernel();
            Costs costs = g.costs();
            DvmBroadcastCost dvm = DvmBroadcastCost.of(costs);
            boolean asid = info.isFullFlush() || info.pages() > costs.tlbiMaxOps;
            long ops = asid ? 1 : info.pages();
            KernelCpu[] domain = g.cpus();
            for (KernelCpu t : domain) {
                Invalidate.mmRange(t, info, asid);
                if (t != c) {
                    t.injectHostWork(dvm.bystanderNs(ops), TimeCategory.REMOTE_INVALIDATION, "tlbi_is");
                }
            }
            g.vmstat().add(Counter.BROADCAST_FLUSHES, ops);
            info.localFlushed = true;
            return dvm.initiatorNs(ops, domain.length);
        }));
        return true;
    }

    /** arm64.flush=local: cross-call the CPUs of mm_cpumask, each running a local TLBI. */
    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu view, CpuMask mask, FlushTlbInfo info) {
        KernelCpu cpu = (KernelCpu) view;
        NativeBackend.nativeFlushTlbMulti(cpu, mask, info, knobs);
    }

    public static final class Provider extends BackendProvider {
        public Provider() {
            super("arm64", "arm64 bare metal: TLBI ...IS broadcast to every CPU of the domain (or local TLBIs by IPI)", false, FLUSH, MM_CPUMASK);
        }

        @Override
        public Object attach(BackendContext facade, Knobs knobs) {
            Arm64Backend b = new Arm64Backend(Kernel.of(facade), knobs);
            return Attachment.of(b).withMmCpumaskTracked(!knobs.get(MM_CPUMASK.name()).equals("stale"));
        }
    }
}
