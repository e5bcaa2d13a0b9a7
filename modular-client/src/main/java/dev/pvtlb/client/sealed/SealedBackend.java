package dev.pvtlb.client.sealed;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;

/**
 * A backend in a package its module neither exports nor opens: the patcher cannot reach it,
 * and must say so in one line (how to fix it included) instead of failing inside Byte Buddy.
 */
public final class SealedBackend extends GuestTableFree {
    private final BackendContext context;

    SealedBackend(BackendContext context) {
        super(context.knobs());
        this.context = context;
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        context.nativeFlushTlbMulti(cpu, mask, info);
    }

    /** The ServiceLoader entry ({@code provides} needs no export). */
    public static final class Provider extends BackendProvider {
        /** Made by ServiceLoader. */
        public Provider() {
            super("module-sealed", "module-path client: a backend its module does not open", false);
        }

        @Override
        public Object attach(BackendContext context, Knobs knobs) {
            return new SealedBackend(context);
        }
    }
}
