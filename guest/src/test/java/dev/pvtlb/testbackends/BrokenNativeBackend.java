package dev.pvtlb.testbackends;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TlbFlushReason;

/**
 * A deliberately broken backend for the project's own harness: native_flush_tlb_multi() that
 * counts and traces the remote flush as native does, then sends no IPI, so no other CPU is ever
 * flushed. The container tests and the hazard detectors must catch it. It lives in the test
 * sources and is registered like a user's backend, through the {@code dev.pvtlb.pvops.PvBackend}
 * services file of this source set (packaged in guest's {@code backend-tests} jar), so the
 * product never shows it.
 */
public final class BrokenNativeBackend extends GuestTableFree {
    public BrokenNativeBackend(BackendContext guest) {
        super(guest.knobs());
    }

    /** native_flush_tlb_multi() with the IPIs left out: the initiator flushes only itself. */
    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu view, CpuMask mask, FlushTlbInfo info) {
        KernelCpu cpu = (KernelCpu) view;
        cpu.kernel().vmstat().inc(Counter.NR_TLB_REMOTE_FLUSH);
        cpu.kernel().trace().tlbFlush(cpu.kernel().engine().now(), cpu.id, TlbFlushReason.TLB_REMOTE_SEND_IPI, info.pages());
    }

    /** The SPI entry for {@code --backend broken-native}. */
    public static final class Provider extends BackendProvider {
        public Provider() {
            super("broken-native", "test: native without the remote flush (no IPI is ever sent)", false);
        }

        @Override
        public Object attach(BackendContext guest, Knobs knobs) {
            return new BrokenNativeBackend(guest);
        }
    }
}
