package dev.pvtlb.internal.backends;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.internal.profile.Costs;
import dev.pvtlb.internal.kernel.NativeBackend;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuCondition;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TimeCategory;

/**
 * Intel RAR (remote action request, 2025 RFC "x86/mm: RAR TLB flushing"): the initiator
 * writes a remote action (invalidate these pages of this address space) for the CPUs of the
 * mask, sends the request through the APIC, and waits for every target's acknowledgement.
 * The targets' hardware performs it with no interrupt handler, whatever their IRQ state; the
 * initiator knows it done only at the last acknowledgement ({@link AwaitedInvalidation}).
 * Targets are chosen as native_flush_tlb_multi() chooses them (the {@code lazy} knob);
 * the initiator flushes itself as flush_tlb_mm_range() does after the call.
 */
public final class RarBackend extends GuestTableFree {

    RarBackend(Kernel guest) {
        super(guest.knobs());
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu view, CpuMask mask, FlushTlbInfo info) {
        KernelCpu cpu = (KernelCpu) view;
        cpu.kernel().vmstat().inc(Counter.NR_TLB_REMOTE_FLUSH);
        CpuCondition cond = NativeBackend.lazyFilter(knobs, info);
        cpu.call(new AwaitedInvalidation("smp_call_rar_many", new AwaitedInvalidation.Request() {
            private final CpuMask targets = new CpuMask(mask.nrCpus());
            private long ops;

            @Override
            public long issue(KernelCpu c) {
                // The targets are chosen when the request is written (is_lazy read now).
                Kernel g = c.kernel();
                Costs costs = g.costs();
                int n = 0;
                ops = info.isFullFlush() ? 1 : info.pages();
                for (int t = mask.next(0); t >= 0; t = mask.next(t + 1)) {
                    if (t != c.id && (cond == null || cond.test(g.cpu(t)))) {
                        targets.set(t);
                        n++;
                    }
                }
                g.vmstat().add(Counter.REMOTE_ACTION_REQUESTS, n);
                return n == 0 ? 0 : n * costs.rarSendNs + costs.rarLatencyNs;
            }

            @Override
            public void complete(KernelCpu c) {
                // Every target acknowledged: its hardware has performed the action.
                Kernel g = c.kernel();
                for (int t = targets.next(0); t >= 0; t = targets.next(t + 1)) {
                    KernelCpu target = g.cpu(t);
                    Invalidate.mmRange(target, info, false);
                    target.injectHostWork(ops * g.costs().rarTargetNs, TimeCategory.REMOTE_INVALIDATION, "rar");
                }
            }
        }));
    }

    public static final class Provider extends BackendProvider {
        public Provider() {
            super("rar", "Intel RAR: remote action requests to the cpumask, performed by the targets' hardware, no handler", false);
        }

        @Override
        public Object attach(BackendContext facade, Knobs knobs) {
            Kernel guest = Kernel.of(facade);
            return new RarBackend(guest);
        }
    }
}
