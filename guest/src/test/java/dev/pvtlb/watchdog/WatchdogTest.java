package dev.pvtlb.watchdog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.model.NoProgressException;
import dev.pvtlb.internal.mem.FrameState;
import dev.pvtlb.internal.mmu.Level;
import dev.pvtlb.internal.sim.Engine;
import dev.pvtlb.scenario.Scripted;
import dev.pvtlb.internal.kernel.KernelCpu;
import dev.pvtlb.internal.kernel.InternalPath;
import dev.pvtlb.smp.KernelPath;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;

/**
 * The engine's watchdog on models that stop making progress: a kernel path that never moves
 * on (steps of no cost, forever) and an access whose fault is never repaired (a stale
 * paging-structure cache entry, as a missed flush leaves). Each run stops with one line naming
 * the CPU and its kernel paths, instead of spinning.
 */
class WatchdogTest {
    /** A kernel path that is never done: each step costs nothing and it never returns. */
    static final class Stuck extends InternalPath {
        long steps;

        @Override
        public long step(KernelCpu cpu) {
            steps++;
            return 0;
        }

        @Override
        public String name() {
            return "stuck_path";
        }
    }

    @Test
    void aPathThatNeverMovesOnStopsAtTheBoundOfStepsPerInstant() {
        Scripted s = new Scripted(GuestConfig.builder().cpus(2).seed(1).build());
        Stuck stuck = new Stuck();
        long[] at = new long[1];
        s.spawn(1, Scripted.sleep(5_000), (cpu, task) -> {
            at[0] = cpu.kernel().engine().now();
            task.opDone();
            cpu.call(stuck);
            return 0;
        });
        NoProgressException e = assertThrows(NoProgressException.class, s::run);
        assertEquals("cpu1 in do_idle > user:t1 > stuck_path ran " + Engine.MAX_STEPS_PER_INSTANT
                + " steps at virtual time " + at[0] + " ns without the clock advancing: the model makes no progress",
                e.getMessage());
        assertTrue(at[0] >= 5_000, "the path started after the sleep: " + at[0]);
        assertEquals(at[0], s.guest.engine().now(), "no virtual time passed while it spun");
        // The bound counts every step at the instant after its first, the step that called the
        // path (the switch back from lazy mode before it writes cpu_tlbstate_shared.is_lazy, so it
        // took time and ended an earlier instant): every step of the path counts.
        assertEquals(Engine.MAX_STEPS_PER_INSTANT, stuck.steps);
    }

    @Test
    void aFaultThatNeverRepairsTheWalkStopsTheRunNamingTheCpuAndTheAddress() {
        Scripted s = new Scripted(GuestConfig.builder().cpus(1).seed(1).build());
        long base = s.map(0, 4);
        // After the first page faulted in (the mm is loaded, its PMD entry cached), cache a PMD
        // entry for the region that points at an empty page table of no mm: the walks of the
        // other pages go there and find nothing, while handle_mm_fault() fills the real table.
        s.spawn(0, Scripted.populate(base, 1), (cpu, task) -> {
            int empty = cpu.kernel().allocator().alloc(FrameState.PAGE_TABLE);
            cpu.localTlb().psc().fill(cpu.localTlb().currentPcid(), base, Level.PMD, empty, cpu.kernel().allocator().frames().generation(empty));
            task.opDone();
            return 1;
        }, Scripted.touch(base + Scripted.PAGE, 1, 1));
        NoProgressException e = assertThrows(NoProgressException.class, s::run);
        String m = e.getMessage();
        assertTrue(m.startsWith(String.format("cpu0 in do_idle > user:t0: the read of 0x%x faulted 1000 times in a row,"
                + " and handle_mm_fault never made it succeed (at virtual time ", base + Scripted.PAGE)), m);
        assertTrue(m.endsWith(" ns): the model makes no progress"), m);
        assertEquals(1 + 999, s.count(Counter.PAGE_FAULTS), "the first page's fault, then 999 handled retries");
        assertEquals(1, m.lines().count());
    }
}
