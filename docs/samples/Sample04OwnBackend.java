package samples;

import dev.pvtlb.pvops.BackendContext;
import dev.pvtlb.Guest;
import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.flush.FlushTlbInfo;
import dev.pvtlb.knob.Knobs;
import dev.pvtlb.pvops.BackendProvider;
import dev.pvtlb.pvops.GuestTableFree;
import dev.pvtlb.pvops.PvOp;
import dev.pvtlb.pvops.TableFreePolicy;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.CpuMask;
import dev.pvtlb.stats.Counter;

/**
 * Sample 4: your own pv_ops backend. A backend is a public class whose public methods carry
 * {@code @PvOp("kernel op name")}; at boot the patcher checks their signatures and generates
 * the guest's pv_ops class calling them directly. This one counts flush_tlb_multi calls, passes
 * them on to the native IPIs, and always frees page tables after an RCU grace period.
 */
public final class Sample04OwnBackend {
    /** The ops. Extending GuestTableFree inherits tlb_remove_table; the other two are ours. */
    public static final class CountingFlushes extends GuestTableFree {
        long flushes;
        long cpusInMasks;

        private final BackendContext context;

        public CountingFlushes(BackendContext context) {
            super(context.knobs());
            this.context = context;
        }

        @PvOp("flush_tlb_multi")
        public void flushTlbMulti(Cpu cpu, CpuMask mask, FlushTlbInfo info) {
            flushes++;
            cpusInMasks += mask.weight();
            context.nativeFlushTlbMulti(cpu, mask, info); // then do what bare metal does
        }

        @Override
        @PvOp("table_free_policy")
        public TableFreePolicy tableFreePolicy() {
            return TableFreePolicy.RCU; // whatever the tableFree knob says
        }
    }

    /** The plug-in: a name, a description, bare metal (not virtualized), no knobs of its own. */
    static final class Plugin extends BackendProvider {
        CountingFlushes attached;

        Plugin() {
            super("counting-flushes", "sample: native IPIs, counted", false);
        }

        @Override
        public Object attach(BackendContext context, Knobs knobs) {
            return attached = new CountingFlushes(context); // called once per boot
        }
    }

    public static void main(String[] args) {
        // Not registered with ServiceLoader (a jar listing it in META-INF/services/dev.pvtlb.pvops.PvBackend
        // would make it a --backend name), so handed to the configuration directly.
        Plugin plugin = new Plugin();
        GuestConfig cfg = GuestConfig.builder().cpus(4).seed(5).backend(plugin).build();
        Scenario s = Scenario.of("munmap-storm").set("threads", "4").set("ops", "10");
        try (Guest g = Guest.boot(cfg)) {
            s.setUp(g); // the workload's tasks, as Runner would create them
            g.run(Long.MAX_VALUE);
            System.out.println("pv_ops patched to: " + g.pvOps().name());
            System.out.println("flush_tlb_multi calls: " + plugin.attached.flushes);
            System.out.println("CPUs in their masks:   " + plugin.attached.cpusInMasks);
            // The guest's own counters see the same flushes, and the tables freed after RCU.
            for (Counter c : new Counter[] {Counter.NR_TLB_REMOTE_FLUSH, Counter.IPIS_SENT, Counter.TABLES_FREED,
                    Counter.RCU_GRACE_PERIODS}) {
                System.out.printf("%-24s %6d%n", c.key, g.vmstat().get(c));
            }
        }
    }
}
