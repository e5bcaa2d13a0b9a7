package embed;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.pvops.TableFreePolicy;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;

/** A user's own backend, found by name through META-INF/services/dev.pvtlb.pvops.PvBackend. */
public final class CountingBackend extends GuestTableFree {
    long flushes;
    private final BackendContext context;

    public CountingBackend(BackendContext context) {
        super(context.knobs());
        this.context = context;
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        flushes++;
        context.nativeFlushTlbMulti(cpu, mask, info);
    }

    @Override
    @PvOp("table_free_policy")
    public TableFreePolicy tableFreePolicy() {
        return TableFreePolicy.RCU;
    }

    /** The ServiceLoader entry: public, with a public no-argument constructor. */
    public static final class Provider extends BackendProvider {
        public Provider() {
            super("embed-counting", "an external project's backend: native IPIs, counted", false);
        }

        @Override
        public Object attach(BackendContext context, Knobs knobs) {
            return new CountingBackend(context);
        }
    }
}
