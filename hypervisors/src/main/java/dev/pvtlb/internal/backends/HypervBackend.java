package dev.pvtlb.internal.backends;

import dev.pvtlb.host.HypervisorFlush;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;

/**
 * Hyper-V: hyperv_flush_tlb_multi() (arch/x86/hyperv/mmu.c). A mask equal to every present
 * CPU is flushed with HV_FLUSH_ALL_PROCESSORS. Otherwise a 64-bit processor mask is built,
 * skipping lazy CPUs unless tables were freed; a VP number of 64 or more needs the _Ex
 * hypercall with a sparse VP set, and without it (hyperv.ex=false, the host not recommending
 * EX processor masks) the flush falls back to native_flush_tlb_multi(). A full flush, or a
 * range beyond what one page of GVA entries (509 entries of up to 4096 pages) can describe,
 * uses HvFlushVirtualAddressSpace; otherwise HvFlushVirtualAddressList.
 */
public final class HypervBackend extends GuestTableFree {
    static final KnobSpec EX = KnobSpec.bool("hyperv.ex", true,
            "the host recommends EX processor masks: flush hypercalls with sparse VP sets reach VPs >= 64; "
                    + "false: a mask with a VP >= 64 falls back to native IPIs");
    /** (PAGE_SIZE - sizeof(struct hv_tlb_flush)) / sizeof(u64): GVA entries in one hypercall input page. */
    static final long MAX_GVAS = (4096 - 24) / 8;
    /** Pages one GVA entry can cover: the low 12 bits count additional pages. */
    static final long PAGES_PER_GVA = 4096;

    private final BackendContext guest;
    private final HypervisorFlush hostFlush;
    private final boolean ex;
    private final long hypercallNs;

    HypervBackend(BackendContext guest, Knobs k) {
        super(guest.knobs());
        this.guest = guest;
        this.ex = k.bool(EX.name());
        this.hostFlush = guest.hypervisorFlush();
        this.hypercallNs = guest.profile().ns("hypercall.ns");
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        cpu.call(KernelPath.oneStep("hyperv_flush_tlb_multi", c -> {
            CpuMask targets = new CpuMask(mask.nrCpus());
            targets.copyFrom(mask);
            boolean allProcessors = mask.weight() == guest.nrCpus();
            if (!allProcessors) {
                boolean doLazy = !info.freedTables;
                boolean needEx = false;
                for (int t = mask.next(0); t >= 0; t = mask.next(t + 1)) {
                    if (doLazy && guest.cpu(t).isLazy()) {
                        targets.clear(t);
                    } else if (t >= 64) {
                        needEx = true;
                    }
                }
                if (needEx && !ex) {
                    guest.count(Counter.NATIVE_FALLBACKS, 1);
                    guest.nativeFlushTlbMulti(c, mask, info);
                    return 0;
                }
                if (targets.isEmpty()) {
                    return 0;
                }
            }
            boolean list = !info.isFullFlush() && info.pages() <= MAX_GVAS * PAGES_PER_GVA;
            guest.count(Counter.HYPERCALLS, 1);
            return hypercallNs + hostFlush.flush(c, targets, info, list ? HypervisorFlush.Scope.PAGES : HypervisorFlush.Scope.MM);
        }));
    }

    public static final class Provider extends BackendProvider {
        public Provider() {
            super("hyperv", "Hyper-V guest: HvFlushVirtualAddressSpace/List hypercalls with a processor mask (or _Ex sparse VP set)", true, EX);
        }

        @Override
        public Object attach(BackendContext facade, Knobs knobs) {
            HypervBackend b = new HypervBackend(facade, knobs);
            return Attachment.of(b).withIpiDelivery(facade.hypercallIpi(false)).withVcpuHost(b.hostFlush.vcpuHost());
        }
    }
}
