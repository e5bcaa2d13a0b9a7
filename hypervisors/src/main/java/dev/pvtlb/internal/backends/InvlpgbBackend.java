package dev.pvtlb.internal.backends;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.smp.MmHandle;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;
import java.util.Set;

/**
 * AMD INVLPGB/TLBSYNC (arch/x86/mm/tlb.c, Linux 6.15): an mm active on 4 or more CPUs gets a
 * global ASID (use_global_asid(), on the condition of consider_global_asid():
 * mm_active_cpus_exceeds(mm, 3)); its flushes are broadcast_tlb_flush(): INVLPGB by PCID and
 * range, up to invlpgb_count_max pages each, then one TLBSYNC. No IPIs, no handler on the
 * targets. An mm on fewer CPUs is flushed with native IPIs.
 * <p>Departure: Linux takes that decision after an IPI flush and only on one jiffy in 32, so a
 * new busy mm's first flushes still send IPIs; pvtlb takes it at the first flush that finds
 * the mm on 4 or more CPUs, modelling the steady state of a long-running process.
 */
public final class InvlpgbBackend extends GuestTableFree {
    /** mm_active_cpus_exceeds(mm, 3). */
    static final int GLOBAL_ASID_MIN_CPUS = 4;

    /*
     * mms given a global ASID. A HashSet of handles that keep Object's identity equality: the same
     * set as one backed by an IdentityHashMap, and one a branch of the run (explore's windows) can copy.
     */
    private final Set<MmHandle> globalAsid = new java.util.HashSet<>();

    private final BackendContext guest;
    /** invlpgb.ns, tlbsync.ns: one INVLPGB, the TLBSYNC that waits for a CPU's broadcasts. */
    private final long invlpgbNs;
    private final long tlbsyncNs;
    /** invlpgb_count_max: pages one INVLPGB may name (CPUID 0x80000008 EDX[15:0] + 1). */
    private final long countMax;

    InvlpgbBackend(BackendContext guest) {
        super(guest.knobs());
        this.guest = guest;
        this.invlpgbNs = guest.profile().ns("invlpgb.ns");
        this.tlbsyncNs = guest.profile().ns("tlbsync.ns");
        this.countMax = Math.max(1, guest.profile().integer("invlpgb.count_max"));
    }

    @PvOp("flush_tlb_broadcast")
    public boolean flushTlbBroadcast(Cpu cpu, FlushTlbInfo info) {
        MmHandle mm = info.mm;
        if (!globalAsid.contains(mm)) {
            if (activeCpus(mm) < GLOBAL_ASID_MIN_CPUS) {
                return false;
            }
            globalAsid.add(mm);
        }
        cpu.call(KernelPath.oneStep("broadcast_tlb_flush", c -> {
            long n = info.isFullFlush() ? 1 : (info.pages() + countMax - 1) / countMax;
            for (int t = 0; t < guest.nrCpus(); t++) {
                Invalidate.mmRange(guest.cpu(t), info, false);
            }
            guest.count(Counter.BROADCAST_FLUSHES, n);
            info.localFlushed = true;
            return n * invlpgbNs + tlbsyncNs;
        }));
        return true;
    }

    /** CPUs in mm_cpumask that have the mm loaded right now. */
    private int activeCpus(MmHandle mm) {
        int n = 0;
        CpuMask m = mm.cpumask();
        for (int c = m.next(0); c >= 0; c = m.next(c + 1)) {
            if (guest.cpu(c).loadedMm() == mm) {
                n++;
            }
        }
        return n;
    }

    @PvOp("flush_tlb_multi")
    public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
        guest.nativeFlushTlbMulti(cpu, mask, info);
    }

    public static final class Provider extends BackendProvider {
        public Provider() {
            super("invlpgb", "AMD INVLPGB/TLBSYNC: broadcast by global ASID for mms on 4+ CPUs, no IPIs, no remote handler", false);
        }

        @Override
        public Object attach(BackendContext facade, Knobs knobs) {
            return new InvlpgbBackend(facade);
        }
    }
}
