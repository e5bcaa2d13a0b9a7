package dev.pvtlb.client;

import dev.pvtlb.Guest;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.NativeBackend;
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

    CountingBackend(Guest guest) {
        super(guest.knobs());
    }

    /** flush_tlb_multi calls so far. */
    public long flushes() {
        return flushes;
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        flushes++;
        NativeBackend.nativeFlushTlbMulti(cpu, mask, info, knobs);
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
        public Object attach(Guest guest, Knobs knobs) {
            return new CountingBackend(guest);
        }
    }
}
