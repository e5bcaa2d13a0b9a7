package dev.pvtlb.pvops;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.VmStat;

/** A user's backend with a counter of its own: native IPIs, each flush_tlb_multi call counted. */
public final class OwnCounterBackend extends GuestTableFree {
    private final BackendContext context;
    private final VmStat.Own calls;

    public OwnCounterBackend(BackendContext context) {
        super(context.knobs());
        this.context = context;
        this.calls = context.counter("own_flush_calls");
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        calls.inc();
        context.nativeFlushTlbMulti(cpu, mask, info);
    }

    /** Its plug-in, handed to the builder (not registered). */
    public static final class Plugin extends BackendProvider {
        public Plugin() {
            super("own-counter", "test: native IPIs and a counter of its own", false);
        }

        @Override
        public Object attach(BackendContext context, Knobs knobs) {
            return new OwnCounterBackend(context);
        }
    }
}
