package dev.pvtlb.client.sealed;

import dev.pvtlb.Guest;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.NativeBackend;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;

/**
 * A backend in a package its module neither exports nor opens: the patcher cannot reach it,
 * and must say so in one line (how to fix it included) instead of failing inside Byte Buddy.
 */
public final class SealedBackend extends GuestTableFree {
    SealedBackend(Guest guest) {
        super(guest.knobs());
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        NativeBackend.nativeFlushTlbMulti(cpu, mask, info, knobs);
    }

    /** The ServiceLoader entry ({@code provides} needs no export). */
    public static final class Provider extends BackendProvider {
        /** Made by ServiceLoader. */
        public Provider() {
            super("module-sealed", "module-path client: a backend its module does not open", false);
        }

        @Override
        public Object attach(Guest guest, Knobs knobs) {
            return new SealedBackend(guest);
        }
    }
}
