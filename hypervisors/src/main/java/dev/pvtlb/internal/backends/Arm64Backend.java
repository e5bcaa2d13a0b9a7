package dev.pvtlb.internal.backends;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.KnobSpec;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.Attachment;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
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
 * mm_cpumask is maintained ({@code arm64.mmCpumask}). What a broadcast costs the initiator and every
 * other CPU, as a function of the domain's size, is {@link DvmBroadcastCost}. With {@code arm64.kpti}
 * the kernel is unmapped at EL0 and __tlbi_user() issues each TLBI a second time for the user ASID
 * (USER_ASID_FLAG): two DVM operations per page. unmap_kernel_at_el0() (arch/arm64/kernel/cpufeature.c)
 * turned KPTI on whenever CONFIG_RANDOMIZE_BASE=y from 4.16 to 5.1, before it consulted kpti_safe_list
 * (where ThunderX2 is), and from 5.2 whenever KASLR did move the kernel; off by default, the model so far.
 */
public final class Arm64Backend extends GuestTableFree {
    static final KnobSpec FLUSH = KnobSpec.choice("arm64.flush", "broadcast",
            "broadcast: TLBI ...IS reaches every CPU of the domain; local: IPI the CPUs of mm_cpumask, "
                    + "each invalidates locally (Takao Indoh, LKML 2019-06-17)",
            "broadcast", "local");
    static final KnobSpec MM_CPUMASK = KnobSpec.choice("arm64.mmCpumask", "tracked",
            "tracked: switch_mm maintains mm_cpumask; stale: it stops doing so, as when no flush relied on it",
            "tracked", "stale");
    static final KnobSpec KPTI = KnobSpec.bool("arm64.kpti", false,
            "kernel unmapped at EL0 (KPTI): __tlbi_user() repeats every TLBI for the user ASID, two DVM operations per "
                    + "page or ASID flush; unmap_kernel_at_el0() turned it on for KASLR kernels even on CPUs of kpti_safe_list");

    private final BackendContext guest;
    private final boolean broadcast;
    /** TLBI instructions per page (or per ASID flush): 2 with KPTI, whose __tlbi_user() repeats each for the user ASID. */
    private final int tlbisPerOp;
    private final DvmBroadcastCost dvm;
    /** MAX_TLBI_OPS: a range of more pages is one ASID flush. */
    private final long tlbiMaxOps;

    Arm64Backend(BackendContext guest, Knobs k) {
        super(guest.knobs());
        this.guest = guest;
        this.broadcast = k.get(FLUSH.name()).equals("broadcast");
        this.tlbisPerOp = k.bool(KPTI.name()) ? 2 : 1;
        this.dvm = DvmBroadcastCost.of(guest.profile());
        this.tlbiMaxOps = Math.max(1, guest.profile().integer("tlbi.max_ops"));
    }

    /**
     * The broadcast path: every CPU of the domain invalidates and pays for each DVM operation and
     * for the DSB's Sync; the initiator waits in DSB ISH for the slowest of them
     * ({@link DvmBroadcastCost}, as a function of the domain's size), and only the DSB's completion
     * guarantees the other CPUs have dropped the entries ({@link AwaitedInvalidation}).
     */
    @PvOp("flush_tlb_broadcast")
    public boolean flushTlbBroadcast(Cpu cpu, FlushTlbInfo info) {
        if (!broadcast) {
            return false;
        }
        cpu.call(new AwaitedInvalidation("__flush_tlb_range", new AwaitedInvalidation.Request() {
            private long ops;
            private boolean asid;

            @Override
            public long issue(Cpu c) {
                // TLBI ...IS per page (or one ASIDE1IS), each twice under KPTI, then DSB ISH waits
                // for every CPU of the domain.
                asid = info.isFullFlush() || info.pages() > tlbiMaxOps;
                ops = tlbisPerOp * (asid ? 1 : info.pages());
                guest.count(Counter.BROADCAST_FLUSHES, ops);
                return dvm.initiatorNs(ops, guest.nrCpus());
            }

            @Override
            public void complete(Cpu c) {
                // DSB ISH completed: every CPU has dropped the entries and paid for processing them.
                long bystander = dvm.bystanderNs(ops);
                for (int i = 0; i < guest.nrCpus(); i++) {
                    Cpu t = guest.cpu(i);
                    Invalidate.mmRange(t, info, asid);
                    if (t != c) {
                        t.injectHostWork(bystander, TimeCategory.REMOTE_INVALIDATION, "tlbi_is");
                    }
                }
                info.localFlushed = true;
            }
        }));
        return true;
    }

    /** arm64.flush=local: cross-call the CPUs of mm_cpumask, each running a local TLBI. */
    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        guest.nativeFlushTlbMulti(cpu, mask, info);
    }

    public static final class Provider extends BackendProvider {
        public Provider() {
            super("arm64", "arm64 bare metal: TLBI ...IS broadcast to every CPU of the domain (or local TLBIs by IPI)", false, FLUSH, MM_CPUMASK,
                    KPTI);
        }

        @Override
        public Object attach(BackendContext facade, Knobs knobs) {
            Arm64Backend b = new Arm64Backend(facade, knobs);
            return Attachment.of(b).withMmCpumaskTracked(!knobs.get(MM_CPUMASK.name()).equals("stale"));
        }
    }
}
