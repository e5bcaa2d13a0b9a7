package dev.pvtlb.internal.backends;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
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

    private final BackendContext guest;
    /** rar.send.ns per target, rar.latency.ns until the acknowledgements, rar.target.ns per action on a target. */
    private final long sendNs;
    private final long latencyNs;
    private final long targetNs;

    RarBackend(BackendContext guest) {
        super(guest.knobs());
        this.guest = guest;
        this.sendNs = guest.profile().ns("rar.send.ns");
        this.latencyNs = guest.profile().ns("rar.latency.ns");
        this.targetNs = guest.profile().ns("rar.target.ns");
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        guest.count(Counter.NR_TLB_REMOTE_FLUSH, 1);
        CpuCondition cond = guest.flushTargets(info);
        cpu.call(new AwaitedInvalidation("smp_call_rar_many", new AwaitedInvalidation.Request() {
            private final CpuMask targets = new CpuMask(mask.nrCpus());
            private long ops;

            @Override
            public long issue(Cpu c) {
                // The targets are chosen when the request is written (is_lazy read now).
                int n = 0;
                ops = info.isFullFlush() ? 1 : info.pages();
                for (int t = mask.next(0); t >= 0; t = mask.next(t + 1)) {
                    if (t != c.id() && (cond == null || cond.test(guest.cpu(t)))) {
                        targets.set(t);
                        n++;
                    }
                }
                guest.count(Counter.REMOTE_ACTION_REQUESTS, n);
                return n == 0 ? 0 : n * sendNs + latencyNs;
            }

            @Override
            public void complete(Cpu c) {
                // Every target acknowledged: its hardware has performed the action.
                for (int t = targets.next(0); t >= 0; t = targets.next(t + 1)) {
                    Cpu target = guest.cpu(t);
                    Invalidate.mmRange(target, info, false);
                    target.injectHostWork(ops * targetNs, TimeCategory.REMOTE_INVALIDATION, "rar");
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
            return new RarBackend(facade);
        }
    }
}
