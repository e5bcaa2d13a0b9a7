package dev.pvtlb.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.mmu.Level;
import dev.pvtlb.internal.mmu.Pte;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.stats.Counter;
import org.junit.jupiter.api.Test;

/** zeroPage=on: a read fault maps the shared zero page; the first write copies it and shoots it down. */
class ZeroPageTest {
    /** cpu1 reads a page, then cpu0 writes it. Returns the guest after the run. */
    private static Scripted readThenWrite(String zeroPage) {
        Scripted s = new Scripted(GuestConfig.builder().cpus(2).seed(1).knob("zeroPage", zeroPage).build());
        long b = s.map(1, 1);
        s.spawn(1, Scripted.touch(b, 1, 1), new dev.pvtlb.internal.workload.Spin(50_000));
        s.spawn(0, new dev.pvtlb.internal.workload.Spin(10_000, 10_000), Scripted.populate(b, 1));
        s.run();
        return s;
    }

    private static long pte(Scripted s, long va) {
        int table = s.guest.pageTables().tableAt(s.mm.pgd(), va, Level.PTE);
        return s.guest.mem().readWord(table, Level.PTE.index(va));
    }

    @Test
    void aWriteToAPageAnotherCpuReadCopiesTheZeroPageAndShootsItDown() {
        Scripted s = readThenWrite("on");
        long b = Scripted.region(1);
        assertEquals(2, s.count(Counter.PAGE_FAULTS), "the read fault and the copy-on-write fault");
        assertEquals(1, s.remoteShootdownsOn(1), "ptep_clear_flush() reaches the reader's CPU");
        long e = pte(s, b);
        assertTrue(Pte.writable(e) && Pte.present(e));
        assertNotEquals(s.guest.zeroPfnIfUsed(), (int) Pte.pfnOf(e), "a page of its own now");
        assertEquals(0, s.guest.hazards().count());
    }

    @Test
    void withoutTheZeroPageTheReadAllocatesAndTheWriteNeedsNoFlush() {
        Scripted s = readThenWrite("off");
        assertEquals(1, s.count(Counter.PAGE_FAULTS), "the read fault maps a writable page; the write hits it");
        assertEquals(0, s.remoteShootdownsOn(1));
        assertEquals(0, s.guest.zeroPfnIfUsed(), "no zero page was ever needed");
    }

    @Test
    void mprotectDoesNotMakeTheZeroPageWritableAndUnmapDoesNotFreeIt() {
        Scripted s = new Scripted(GuestConfig.builder().cpus(1).seed(1).knob("zeroPage", "on").build());
        long b = s.map(1, 2);
        s.spawn(0, Scripted.touch(b, 2, 2), s.mprotectRo(b, 2),
                new dev.pvtlb.internal.workload.Syscall(t -> new dev.pvtlb.internal.kernel.Mprotect(s.mm, b, b + 2 * Scripted.PAGE, true), null),
                Scripted.populate(b, 1), s.munmap(b, 2));
        long free = s.guest.allocator().freeFrames();
        s.run();
        // The reads mapped the zero page twice; mprotect(RW) left both read-only, so the write to
        // the first copied it (one new frame), and the munmap freed that copy and not the zero page.
        assertEquals(3, s.count(Counter.PAGE_FAULTS));
        assertEquals(free - 1, s.guest.allocator().freeFrames(), "the zero page stays allocated, the copy is freed");
        assertEquals(0, s.guest.hazards().count());
    }

    @Test
    void madviseTouchShootsDownEveryPageTheReaderRead() {
        RunReport on = Runner.run(Scenario.of("madvise-touch").set("ops", "10").set("zeroPage", "on"));
        // 16 copies and the madvise's own flush, per round.
        assertEquals(170, on.counters().get("nr_tlb_remote_flush"));
        RunReport off = Runner.run(Scenario.of("madvise-touch").set("ops", "10"));
        assertEquals(10, off.counters().get("nr_tlb_remote_flush"), "the madvise's flush only");
        assertTrue(on.metrics().get("madvise_touch_ns").mean() > 10 * off.metrics().get("madvise_touch_ns").mean(),
                on.metrics().get("madvise_touch_ns").mean() + " vs " + off.metrics().get("madvise_touch_ns").mean());
    }
}
