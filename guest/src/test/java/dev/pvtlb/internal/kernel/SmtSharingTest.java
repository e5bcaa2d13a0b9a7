package dev.pvtlb.internal.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.smp.Cpu;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.TimeCategory;
import org.junit.jupiter.api.Test;

/**
 * SMT execution sharing (x86-skylake: smt.share.factor 1.54): a step runs 1.54 times slower while
 * the core's other thread executes, rounded to the nanosecond; with the sibling halted, spinning
 * in a PAUSE loop or descheduled by the host, or without SMT, it costs what it costs alone; and
 * its end moves when the sibling starts or stops executing during it (processor sharing).
 */
class SmtSharingTest {
    private static final Topology ONE_CORE_TWO_THREADS = new Topology(1, 1, 2);
    private static final Topology TWO_CORES = new Topology(1, 2, 1);

    /** One step of {@code ns}; records when it started and when the next step began. */
    private static final class Work extends KernelPath {
        private final long ns;
        long start = -1;
        long end = -1;

        Work(long ns) {
            this.ns = ns;
        }

        @Override
        public long step(Cpu cpu) {
            Kernel g = ((KernelCpu) cpu).kernel();
            if (pc++ == 0) {
                start = g.engine().now();
                return ns;
            }
            end = g.engine().now();
            cpu.ret();
            return 0;
        }

        long took() {
            return end - start;
        }

        @Override
        public String name() {
            return "work";
        }
    }

    /** Spins with IRQs on until woken, as csd_lock_wait() does (blocked in IPI_WAIT). */
    private static final class SpinWait extends KernelPath {
        @Override
        public long step(Cpu cpu) {
            return BLOCK;
        }

        @Override
        public TimeCategory category() {
            return TimeCategory.IPI_WAIT;
        }

        @Override
        public String name() {
            return "csd_lock_wait";
        }
    }

    /** Works {@code ns}, then spins in csd_lock_wait() for good: it stops executing then. */
    private static final class WorkThenSpin extends KernelPath {
        private final long ns;

        WorkThenSpin(long ns) {
            this.ns = ns;
        }

        @Override
        public long step(Cpu cpu) {
            return pc++ == 0 ? ns : BLOCK;
        }

        @Override
        public TimeCategory category() {
            return pc == 0 ? TimeCategory.KERNEL : TimeCategory.IPI_WAIT;
        }

        @Override
        public String name() {
            return "work, then csd_lock_wait";
        }
    }

    private static Kernel boot(Topology t, String factor) {
        GuestConfig.Builder b = GuestConfig.builder().topology(t).memoryMiB(16);
        if (factor != null) {
            b.profile(b.profile().with(java.util.Map.of("smt.share.factor", Double.parseDouble(factor)), "test"));
        }
        Kernel g = KernelBoot.boot(b.build());
        g.engine().run(1_000_000, Long.MAX_VALUE); // both CPUs go idle and halt
        return g;
    }

    private static void start(Kernel g, int cpu, KernelPath p) {
        g.cpu(cpu).call(p);
        g.cpu(cpu).wake();
    }

    /** What a 1000 ns step on CPU 0 takes while CPU 1 starts a long computation. */
    private static long stepBesideABusyCpu(Topology t, String factor) {
        try (Kernel g = boot(t, factor)) {
            Work w = new Work(1000);
            start(g, 0, w);
            start(g, 1, new Work(1_000_000));
            g.engine().run(2_000_000, Long.MAX_VALUE);
            return w.took();
        }
    }

    @Test
    void aStepWhileTheSiblingExecutesCostsTheFactorMore() {
        try (Kernel g = boot(ONE_CORE_TWO_THREADS, null)) {
            assertEquals(1540, g.costs().smtSharePermille);
        }
        assertEquals(1540, stepBesideABusyCpu(ONE_CORE_TWO_THREADS, null), "1000 ns x 1.54");
    }

    @Test
    void aStepSpeedsUpWhenItsSiblingStopsExecuting() {
        try (Kernel g = boot(ONE_CORE_TWO_THREADS, null)) {
            long t0 = g.engine().now();
            Work w = new Work(1000);
            start(g, 0, w);
            start(g, 1, new WorkThenSpin(200));
            g.engine().run(2_000_000, Long.MAX_VALUE);
            // Both shared for the sibling's 200 ns (308 ns at x1.54, 200 ns of the step's 1000
            // done), then the core is the step's alone: 800 ns more.
            assertEquals(308 + 800, w.took());
            assertEquals(t0, w.start);
            assertEquals(true, g.cpu(1).isSpinning());
            assertEquals(308, g.cpuTime().get(1, TimeCategory.KERNEL), "the sibling's step, booked as it took");
        }
    }

    @Test
    void aStepSlowsWhenItsSiblingStartsExecuting() {
        try (Kernel g = boot(ONE_CORE_TWO_THREADS, null)) {
            long t0 = g.engine().now();
            Work w = new Work(1000);
            start(g, 0, w);
            g.engine().at(t0 + 400, e -> start(g, 1, new Work(1_000_000)));
            g.engine().run(2_000_000, Long.MAX_VALUE);
            // Alone for 400 ns, then the remaining 600 ns at x1.54: 924 ns more.
            assertEquals(400 + 924, w.took());
        }
    }

    @Test
    void aStepKeepsItsPaceWhenTheSiblingComesAndGoesWithin() {
        try (Kernel g = boot(ONE_CORE_TWO_THREADS, null)) {
            long t0 = g.engine().now();
            Work w = new Work(1000);
            start(g, 0, w);
            g.engine().at(t0 + 100, e -> start(g, 1, new WorkThenSpin(100)));
            g.engine().run(2_000_000, Long.MAX_VALUE);
            // Alone 100 ns, shared 154 ns (the sibling's 100 ns; 100 of the step's), alone 800 ns.
            assertEquals(100 + 154 + 800, w.took());
        }
    }

    @Test
    void theScaledCostIsRoundedHalfUpToTheNanosecond() {
        assertEquals(20, SmtSharing.scale(13, 1540), "13 x 1.54 = 20.02");
        assertEquals(2, SmtSharing.scale(1, 1540), "1.54");
        assertEquals(2, SmtSharing.scale(1, 1500), "1.5 rounds up");
        assertEquals(3_000_000_000_000_000L * 1540 / 1000, SmtSharing.scale(3_000_000_000_000_000L, 1540), "no overflow");
    }

    @Test
    void aStepWhileTheSiblingIsHaltedCostsWhatItCostsAlone() {
        try (Kernel g = boot(ONE_CORE_TWO_THREADS, null)) {
            Work w = new Work(1000);
            start(g, 0, w);
            g.engine().run(2_000_000, Long.MAX_VALUE);
            assertEquals(1000, w.took());
        }
    }

    @Test
    void aSiblingSpinningInAPauseLoopLeavesTheCoreToTheOther() {
        try (Kernel g = boot(ONE_CORE_TWO_THREADS, null)) {
            start(g, 1, new SpinWait());
            g.engine().run(1_100_000, Long.MAX_VALUE);
            assertEquals(true, g.cpu(1).isSpinning());
            Work w = new Work(1000);
            start(g, 0, w);
            g.engine().run(2_000_000, Long.MAX_VALUE);
            assertEquals(1000, w.took());
        }
    }

    @Test
    void aSiblingDescheduledByTheHostDoesNotSlowTheOther() {
        try (Kernel g = boot(ONE_CORE_TWO_THREADS, null)) {
            Work w = new Work(1000);
            start(g, 0, w);
            start(g, 1, new Work(1_000_000));
            g.cpu(1).runState().preempt();
            g.engine().run(2_000_000, Long.MAX_VALUE);
            assertEquals(1000, w.took());
        }
    }

    @Test
    void withoutSmtTheOtherCoreDoesNotSlowTheStep() {
        assertEquals(1000, stepBesideABusyCpu(TWO_CORES, null));
    }

    @Test
    void aFactorOfOneTurnsSharingOff() {
        assertEquals(1000, stepBesideABusyCpu(ONE_CORE_TWO_THREADS, "1"));
    }

    @Test
    void theEndsOfTheAssumedRange() {
        for (String[] c : new String[][] {{"1.18", "1180"}, {"2.0", "2000"}}) {
            assertEquals(Long.parseLong(c[1]), stepBesideABusyCpu(ONE_CORE_TWO_THREADS, c[0]), c[0]);
        }
    }
}
