package dev.pvtlb.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.VmStat;
import org.junit.jupiter.api.Test;

/** A few invocations outside JMH: each is exactly one 16-page flush that reaches the 15 other CPUs. */
class FlushBenchTest {
    @Test
    void eachInvocationIsOneFlushIpiingTheFifteenOtherCpus() {
        FlushBench b = new FlushBench();
        b.setUp();
        try {
            assertEquals(FlushBench.CPUS, b.mm.cpumask().weight(), "the mm is loaded on every CPU");
            VmStat v = b.guest.vmstat();
            for (int i = 0; i < 3; i++) {
                long flushes = v.get(Counter.NR_TLB_REMOTE_FLUSH);
                long sent = v.get(Counter.IPIS_SENT);
                long received = v.get(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED);
                long localOne = v.get(Counter.NR_TLB_LOCAL_FLUSH_ONE);
                long all = v.get(Counter.NR_TLB_LOCAL_FLUSH_ALL);
                long steps = b.flush();
                assertTrue(steps > 0 && steps < FlushBench.MAX_STEPS_PER_FLUSH, "steps " + steps);
                assertEquals(1, v.get(Counter.NR_TLB_REMOTE_FLUSH) - flushes);
                assertEquals(FlushBench.CPUS - 1, v.get(Counter.IPIS_SENT) - sent);
                assertEquals(FlushBench.CPUS - 1, v.get(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED) - received);
                assertEquals(FlushBench.PAGES, v.get(Counter.NR_TLB_LOCAL_FLUSH_ONE) - localOne, "INVLPG per page on CPU 0");
                assertEquals(0, v.get(Counter.NR_TLB_LOCAL_FLUSH_ALL) - all, "never a full flush");
            }
            assertEquals(0L, b.guest.hazards().count(), "no stale translation");
        } finally {
            b.tearDown();
        }
    }
}
