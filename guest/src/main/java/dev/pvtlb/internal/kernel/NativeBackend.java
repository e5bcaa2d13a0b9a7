package dev.pvtlb.internal.kernel;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestKnobs;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuCondition;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TlbFlushReason;

/**
 * The kernel's native pv_ops on bare metal: native_flush_tlb_multi() and the native
 * table-free path (arch/x86/mm/tlb.c, mm/mmu_gather.c). Its knobs are the guest's own.
 */
public final class NativeBackend extends GuestTableFree {
    public NativeBackend(GuestKnobs knobs) {
        super(knobs);
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        nativeFlushTlbMulti(cpu, mask, info, knobs);
    }

    /**
     * native_flush_tlb_multi(): count NR_TLB_REMOTE_FLUSH, then IPI every CPU of the mask if
     * tables were freed (lazy ones too: their paging-structure caches may hold the tables),
     * else only CPUs that should_flush_tlb(). Shared by backends that fall back to native.
     */
    public static void nativeFlushTlbMulti(Cpu view, CpuMask mask, FlushTlbInfo info, GuestKnobs knobs) {
        KernelCpu cpu = (KernelCpu) view;
        cpu.kernel().vmstat().inc(Counter.NR_TLB_REMOTE_FLUSH);
        cpu.kernel().trace().tlbFlush(cpu.kernel().engine().now(), cpu.id, TlbFlushReason.TLB_REMOTE_SEND_IPI, info.pages());
        CpuMask targets = mask;
        if (knobs.smtSiblingDedup) {
            targets = dedupSmtSiblings(cpu, mask);
        }
        CpuCondition cond = lazyFilter(knobs, info);
        boolean runLocal = knobs.concurrentFlush;
        if (runLocal && targets.test(cpu.id) && cpu.loadedMm() == info.mm) {
            info.localFlushed = true;
        }
        cpu.call(new SmpCallFunctionMany("native_flush_tlb_multi", targets,
                t -> TlbFlush.flushTlbFunc(t, info, t.id() == info.initiatingCpu), cond, runLocal));
    }

    /** Which targets native_flush_tlb_multi() skips, per the {@code lazy} knob (null: none). */
    public static CpuCondition lazyFilter(GuestKnobs knobs, FlushTlbInfo info) {
        return switch (knobs.lazy) {
            case OFF, IPI -> null;
            case SKIP -> info.freedTables ? null : t -> TlbFlush.shouldFlushTlb(t, info);
            case SKIP_NOFREE -> t -> TlbFlush.shouldFlushTlb(t, info);
        };
    }

    /**
     * The SMT-sibling filter of Alex Shi, "x86/tlb: just do tlb flush on one of siblings of SMT",
     * LKML 2012: for each CPU whose whole sibling set is in the mask, drop its next sibling; the
     * kept thread's flush is assumed to cover the core's TLB. Applied to the mask including the
     * initiator, as the patch did (smp_call_function_many then skips the initiator itself).
     */
    static CpuMask dedupSmtSiblings(KernelCpu cpu, CpuMask mask) {
        CpuMask out = new CpuMask(mask.nrCpus());
        out.copyFrom(mask);
        KernelCpu[] all = cpu.kernel().cpus();
        CpuMask siblings = new CpuMask(mask.nrCpus());
        for (int c = out.next(0); c >= 0; c = out.next(c + 1)) {
            siblings.clearAll();
            for (int s : cpu.kernel().topology().siblingsOf(all[c].id)) {
                siblings.set(s);
            }
            if (!siblings.subsetOf(out)) {
                continue;
            }
            int next = siblings.next(c + 1);
            if (next >= 0) {
                out.clear(next);
            }
        }
        return out;
    }

    /** The SPI entry for {@code --backend native}. */
    public static final class Provider extends BackendProvider {
        public Provider() {
            // native's knobs are the guest's own (native.*, lazy, tableFree)
            super("native", "bare metal: flush IPIs through the local APIC (native_flush_tlb_multi)", false);
        }

        @Override
        public Object attach(BackendContext guest, Knobs knobs) {
            return new NativeBackend(guest.knobs());
        }
    }
}
