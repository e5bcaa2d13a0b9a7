package dev.pvtlb.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.smp.Topology;
import dev.pvtlb.stats.Counter;
import dev.pvtlb.stats.TlbFlushReason;
import dev.pvtlb.stats.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scenario-level checks of the guest-core issue, with the model's concrete numbers. */
class NativeShootdownTest {
    private static final long BUSY = 150_000; // accesses: about 0.2 ms of user time, past the munmap at ~60 us

    /** CPU0 faults in 64 pages of region 0 and unmaps 10 of them; CPUs 1..3 stay busy in the mm. */
    private static Scripted munmapWhileOthersRun(GuestConfig cfg, int unmapPages) {
        Scripted s = new Scripted(cfg);
        long a = s.map(0, 64);
        for (int c = 1; c < cfg.cpus(); c++) {
            long mine = s.map(c, 8);
            s.spawn(c, Scripted.populate(mine, 8), Scripted.touch(mine, 8, BUSY));
        }
        s.spawn(0, Scripted.populate(a, 64), s.munmap(a + 8 * Scripted.PAGE, unmapPages));
        s.run();
        return s;
    }

    @Test
    void munmapOfTenPagesIpisExactlyTheThreeOthersAndEachFlushesOnce() {
        Scripted s = munmapWhileOthersRun(GuestConfig.builder().cpus(4).seed(3).build(), 10);
        assertEquals(1, s.count(Counter.NR_TLB_REMOTE_FLUSH));
        assertEquals(3, s.count(Counter.IPIS_SENT));
        assertEquals(3, s.count(Counter.IPIS_RECEIVED));
        assertEquals(3, s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED));
        assertEquals(10, s.count(Counter.NR_TLB_LOCAL_FLUSH_ONE));
        assertEquals(0, s.count(Counter.NR_TLB_LOCAL_FLUSH_ALL));
        for (int c = 1; c <= 3; c++) {
            List<TraceEvent> f = s.flushes(c, TlbFlushReason.TLB_REMOTE_SHOOTDOWN);
            assertEquals(1, f.size(), "cpu" + c);
            assertEquals(10, f.get(0).pages(), "cpu" + c + " flushes the 10 pages one by one");
        }
        assertEquals(0, s.remoteShootdownsOn(0));
    }

    @Test
    void rangeAboveTheCeilingBecomesAFullFlush() {
        Scripted s = munmapWhileOthersRun(GuestConfig.builder().cpus(4).seed(3).build(), 40);
        assertEquals(1, s.count(Counter.NR_TLB_LOCAL_FLUSH_ALL));
        assertEquals(0, s.count(Counter.NR_TLB_LOCAL_FLUSH_ONE));
        for (int c = 1; c <= 3; c++) {
            List<TraceEvent> f = s.flushes(c, TlbFlushReason.TLB_REMOTE_SHOOTDOWN);
            assertEquals(1, f.size());
            assertEquals(TraceEvent.FLUSH_ALL, f.get(0).pages());
        }
    }

    @Test
    void thirtyThreePagesStillFlushPageByPage() {
        Scripted s = munmapWhileOthersRun(GuestConfig.builder().cpus(4).seed(3).build(), 33);
        assertEquals(33, s.count(Counter.NR_TLB_LOCAL_FLUSH_ONE));
        assertEquals(0, s.count(Counter.NR_TLB_LOCAL_FLUSH_ALL));
    }

    /**
     * CPU3 runs the mm, then sleeps (lazy) across CPU0's munmap, then runs again. Returns the
     * scenario; {@code freeTable} unmaps all of region 0 so its page-table page is freed.
     */
    private static Scripted lazyCpuScenario(String lazy, boolean freeTable) {
        Scripted s = new Scripted(GuestConfig.builder().cpus(4).seed(5).knob("lazy", lazy).build());
        int pages = freeTable ? 10 : 64;
        long a = s.map(0, pages);
        for (int c = 1; c <= 2; c++) {
            long mine = s.map(c, 8);
            s.spawn(c, Scripted.populate(mine, 8), Scripted.touch(mine, 8, BUSY));
        }
        long three = s.map(3, 8);
        s.spawn(3, Scripted.populate(three, 8), Scripted.sleep(300_000), Scripted.touch(three, 8, 1000));
        // CPU0 faults 64 pages (about 51 us) first, so CPU3 is asleep and lazy by the munmap.
        long lead = s.map(4, 64);
        s.spawn(0, Scripted.populate(lead, 64), Scripted.populate(a, pages),
                s.munmap(freeTable ? a : a + 8 * Scripted.PAGE, 10));
        s.run();
        return s;
    }

    @Test
    void lazySkipSendsTwoIpisAndTheLazyCpuCatchesUpWithAFullFlushOnReturn() {
        Scripted s = lazyCpuScenario("skip", false);
        assertEquals(2, s.count(Counter.IPIS_SENT));
        assertEquals(2, s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED));
        assertEquals(0, s.remoteShootdownsOn(3));
        // Its switches: the first load of the mm (new ASID) and the return from lazy mode,
        // which finds tlb_gen moved on and reloads CR3 with a flush.
        List<TraceEvent> sw = s.flushes(3, TlbFlushReason.TLB_FLUSH_ON_TASK_SWITCH);
        assertEquals(2, sw.size());
        assertEquals(TraceEvent.FLUSH_ALL, sw.get(1).pages());
        assertTrue(sw.get(1).time() > 300_000);
        assertEquals(0, s.count(Counter.TABLES_FREED));
    }

    @Test
    void lazyCpuIsIpiedWhenTablesWereFreed() {
        Scripted s = lazyCpuScenario("skip", true);
        assertEquals(1, s.count(Counter.TABLES_FREED));
        assertEquals(3, s.count(Counter.IPIS_SENT));
        assertEquals(3, s.count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED));
        // The lazy CPU's flush_tlb_func switched it to init_mm rather than flushing in place.
        List<TraceEvent> sw = s.flushes(3, TlbFlushReason.TLB_FLUSH_ON_TASK_SWITCH);
        assertEquals(3, sw.size(), "load mm, leave to init_mm in the IPI, load mm again");
        assertSame(s.mm, s.guest.cpu(3).loadedMm());
    }

    @Test
    void lazyIpiModeIpisTheLazyCpuEvenWithoutFreedTables() {
        Scripted s = lazyCpuScenario("ipi", false);
        assertEquals(3, s.count(Counter.IPIS_SENT));
    }

    @Test
    void lazySkipNofreeSkipsTheLazyCpuEvenWhenTablesWereFreed() {
        Scripted s = lazyCpuScenario("skip-nofree", true);
        assertEquals(1, s.count(Counter.TABLES_FREED));
        assertEquals(2, s.count(Counter.IPIS_SENT));
    }

    @Test
    void lazyOffLeavesTheMaskWhenIdleSoTheIdleCpuIsNeverIpied() {
        Scripted s = lazyCpuScenario("off", true);
        assertEquals(2, s.count(Counter.IPIS_SENT));
    }

    /** 4 cores x 2 threads, all 8 CPUs in the mm, CPU0 unmaps 10 pages. */
    private static long receivedWithDedup(boolean dedup) {
        GuestConfig cfg = GuestConfig.builder().topology(new Topology(1, 4, 2)).sharedSmtTlb(true)
                .knob("native.smtSiblingDedup", Boolean.toString(dedup)).seed(9).build();
        return munmapWhileOthersRun(cfg, 10).count(Counter.NR_TLB_REMOTE_FLUSH_RECEIVED);
    }

    @Test
    void smtSiblingDedupHalvesTheThreadsFlushed() {
        // Without: the 7 other CPUs. With: one thread per core, 0..3, of which 0 is the
        // initiator (its local flush is assumed to cover sibling 4): 3 remote.
        assertEquals(7, receivedWithDedup(false));
        assertEquals(3, receivedWithDedup(true));
    }

    /**
     * 5.3's target mask is built by plain loads of each target's is_lazy that the core overlaps,
     * line.fill_buffers at a time: 12 targets are 2 groups of loads with 10 fill buffers, 1 group
     * with 12. Each group costs one 20 ns transfer (the targets' switch_mm dirtied their lines), so
     * the send costs 20 ns less with 12; since the series the loads are issued between the queueing
     * atomics and the fill buffers change nothing.
     */
    @Test
    void beforeTheSeriesTheIsLazyLoadsOverlapAsManyAsTheFillBuffers() {
        assertEquals(20, flushSend("false", 10) - flushSend("false", 12));
        assertEquals(0, flushSend("true", 10) - flushSend("true", 12));
    }

    private static long flushSend(String concurrentFlush, double fillBuffers) {
        GuestConfig.Builder b = GuestConfig.builder().cpus(13).seed(3).knob("native.concurrentFlush", concurrentFlush);
        GuestConfig cfg = b.profile(b.profile().with(java.util.Map.of("line.fill_buffers", fillBuffers), "test")).build();
        Scripted s = munmapWhileOthersRun(cfg, 10);
        assertEquals(12, s.count(Counter.IPIS_SENT));
        return s.guest.ledger().totals().get("flush_send");
    }

    @Test
    void withoutConcurrentFlushTheInitiatorWaitsLonger() {
        // mmapLock=off: the munmap takes no mmap_lock, so the arithmetic below is the flush's alone.
        GuestConfig on = GuestConfig.builder().cpus(4).seed(3).knob("mmapLock", "off").build();
        GuestConfig off = GuestConfig.builder().cpus(4).seed(3).knob("mmapLock", "off").knob("native.concurrentFlush", "false").build();
        Scripted a = munmapWhileOthersRun(on, 10);
        Scripted b = munmapWhileOthersRun(off, 10);
        assertEquals(a.count(Counter.IPIS_SENT), b.count(Counter.IPIS_SENT));
        long kernelA = a.guest.cpuTime().get(0, dev.pvtlb.stats.TimeCategory.KERNEL)
                + a.guest.cpuTime().get(0, dev.pvtlb.stats.TimeCategory.IPI_WAIT);
        long kernelB = b.guest.cpuTime().get(0, dev.pvtlb.stats.TimeCategory.KERNEL)
                + b.guest.cpuTime().get(0, dev.pvtlb.stats.TimeCategory.IPI_WAIT);
        // Serial, as 5.10's flush_tlb_mm_range(): the local flush_tlb_func (10 INVLPGs of 100 ns and
        // a 5 ns read of tlb_gen) runs before the IPIs go out, so the initiator then waits the whole
        // remote round trip, 893 ns, where the concurrent flush, overlapping it, waits 138 ns. 5.10's
        // cpu_tlbstate layout adds 10 ns to its own steps: the 3 targets' is_lazy lines, which their
        // switch_mm dirtied, cost one 20 ns transfer read together (15 ns as 3 hits, one after the
        // other, since the series); its flush_tlb_func writes its own is_lazy line (5 ns).
        assertEquals(893 + 10 - 138, kernelB - kernelA);
        assertEquals(893, b.guest.cpuTime().get(0, dev.pvtlb.stats.TimeCategory.IPI_WAIT));
    }
}
