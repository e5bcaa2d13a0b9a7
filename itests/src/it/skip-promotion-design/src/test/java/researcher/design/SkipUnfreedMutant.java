package researcher.design;

import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;

/**
 * The careless version of the design, kept in the tests to show that their safety hunt can fail:
 * "targets catch up through tlb_gen at their next switch_mm, so only freed tables need an IPI"
 * skips every shootdown that freed no page tables, demotions (mprotect read-only) included. A
 * CPU that still holds a writable translation then uses it after mprotect() returned.
 */
public final class SkipUnfreedMutant extends GuestTableFree {
    static final String NAME = "researcher-skip-unfreed-mutant";

    private final BackendContext context;

    SkipUnfreedMutant(BackendContext context) {
        super(context.knobs());
        this.context = context;
    }

    /** pv_ops.mmu.flush_tlb_multi: native_flush_tlb_multi() only when tables were freed. */
    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        if (info.freedTables) {
            context.nativeFlushTlbMulti(cpu, mask, info);
        }
    }

    /** Registered by the tests' own services file, so it never reaches the design's jar. */
    public static final class Provider extends BackendProvider {
        public Provider() {
            super(NAME, "test only: no shootdown unless page tables were freed (unsafe)", false);
        }

        @Override
        public Object attach(BackendContext context, Knobs knobs) {
            return new SkipUnfreedMutant(context);
        }
    }
}
