package dev.pvtlb.client;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.pvops.TableFreePolicy;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;

/**
 * A user's backend in a named module: native IPIs, with every flush_tlb_multi call counted.
 * Written against the exported SPI only (pvops, flush, smp, knob).
 */
public final class CountingBackend extends GuestTableFree {
    private long flushes;

    private final BackendContext context;

    CountingBackend(BackendContext context) {
        super(context.knobs());
        this.context = context;
    }

    /** flush_tlb_multi calls so far. */
    public long flushes() {
        return flushes;
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

    /** The ServiceLoader entry named by this module's {@code provides}. */
    public static final class Provider extends BackendProvider {
        /** Made by ServiceLoader. */
        public Provider() {
            super("module-counting", "module-path client: native IPIs, counted", false);
        }

        @Override
        public Object attach(BackendContext context, Knobs knobs) {
            return new CountingBackend(context);
        }
    }
}
