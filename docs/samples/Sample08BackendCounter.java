package samples;

import dev.pvtlb.Guest;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.VmStat;

/**
 * Sample 8: a user's backend with a counter of its own. BackendContext.counter(name) makes a
 * counter that the guest reports with its own (Guest.vmstat(), and a run's report and JSON), and
 * Guest.backend(Class) hands back the object the backend attached, for whatever else it keeps.
 */
public final class Sample08BackendCounter {
    /** Native IPIs, counting the CPUs each flush_tlb_multi is asked to reach. */
    public static final class TargetCounter extends GuestTableFree {
        private final BackendContext context;
        private final VmStat.Own targets;
        int widest;

        public TargetCounter(BackendContext context) {
            super(context.knobs());
            this.context = context;
            this.targets = context.counter("flush_targets");
        }

        @PvOp("flush_tlb_multi")
        public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
            targets.add(mask.weight());
            widest = Math.max(widest, mask.weight());
            context.nativeFlushTlbMulti(cpu, mask, info);
        }
    }

    static final class Plugin extends BackendProvider {
        Plugin() {
            super("target-counter", "sample: native IPIs, flush targets counted", false);
        }

        @Override
        public Object attach(BackendContext context, Knobs knobs) {
            return new TargetCounter(context);
        }
    }

    public static void main(String[] args) {
        Scenario s = Scenario.of("munmap-storm").set("vcpus", "4").set("threads", "4").set("ops", "5").seed(3);
        GuestConfig cfg = GuestConfig.builder().topology(s.guestConfig(0).topology()).seed(3).backend(new Plugin()).build();
        try (Guest g = Guest.boot(cfg)) {
            s.setUp(g);
            g.run(Long.MAX_VALUE);
            System.out.println("nr_tlb_remote_flush: " + g.vmstat().asMap().get("nr_tlb_remote_flush"));
            System.out.println("flush_targets (the backend's own counter): " + g.vmstat().asMap().get("flush_targets"));
            System.out.println("widest mask (read from the attached object): " + g.backend(TargetCounter.class).widest + " CPUs");
        }
    }
}
