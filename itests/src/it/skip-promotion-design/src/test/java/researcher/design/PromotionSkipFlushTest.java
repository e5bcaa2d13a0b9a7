package researcher.design;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.Guest;
import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.PctStrategy;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.pvops.PvBackend;
import dev.pvtlb.pvops.PvBackends;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.stats.TlbFlushReason;
import dev.pvtlb.stats.TraceEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The design booted in pvtlb through the public API only, as its author would test it: found by
 * name, identical to native with its knob off, no shootdown for a promotion and one for everything
 * else, what that costs, and safe where a sloppier skip is not.
 *
 * <p>The workload is pvtlb's torture with only touches and mprotect() in its mix, seed 1: 4 CPUs,
 * two processes of two threads (mm1 on CPUs 0 and 2, mm2 on 1 and 3), each thread touching its
 * process's 8-page slots (two shared, one of its own) and flipping them read-only and back. Every
 * flush in it is mprotect's; every one that reaches flush_tlb_multi has one other CPU in mm_cpumask.
 */
class PromotionSkipFlushTest {
    private static final String NATIVE = "native";

    /** Touches and mprotect() only: every flush is a demotion (read-only) or a promotion (writable again). */
    static Scenario mprotects(String backend) {
        return Scenario.of("tlb-torture").set("mix", "touch:8,mprotect:4").seed(1).backend(backend);
    }

    /** The torture's default mix (munmap, madvise, mprotect, mremap, fork, gup_fast, naps): every kind of flush. */
    static Scenario everything(String backend) {
        return Scenario.of("tlb-torture").seed(1).backend(backend);
    }

    @Test
    void isRegisteredByNameWithItsKnob() {
        PvBackend b = PvBackends.byName(PromotionSkipFlush.NAME);
        assertInstanceOf(PromotionSkipFlush.Provider.class, b, "found through META-INF/services/dev.pvtlb.pvops.PvBackend");
        assertFalse(b.virtualized(), "bare metal: the APIC's IPIs, no host model");
        assertEquals(List.of(PromotionSkipFlush.SKIP), b.knobs());
        assertEquals("true", b.knobs().get(0).defaultValue());
    }

    /**
     * With {@code researcher.skipPromotion=false} every flush goes to native_flush_tlb_multi(): the
     * run is native's, counter for counter and step for step, and the design's own counter stays 0.
     * So whatever the skip changes below is the skip's doing, not the backend's plumbing.
     */
    @Test
    void withItsKnobOffItIsNativeCounterForCounter() {
        RunReport nat = Runner.run(everything(NATIVE));
        RunReport off = Runner.run(everything(PromotionSkipFlush.NAME).set(PromotionSkipFlush.SKIP.name(), "false"));
        Map<String, Long> model = new LinkedHashMap<>(off.counters());
        assertEquals(0L, model.remove(PromotionSkipFlush.SKIPPED), "the design's counter, reported after the model's");
        assertEquals(nat.counters(), model);
        assertEquals(nat.steps(), off.steps());
        assertEquals(2402, nat.steps());
        assertEquals(19, nat.counters().get("nr_tlb_remote_flush"));
        assertEquals(11, nat.counters().get("ipis_sent"));
        assertEquals(0, off.hazards().size());
    }

    /**
     * Every call of the op, read from the tracepoints: a demotion is handed to native (its
     * {@code TLB_REMOTE_SEND_IPI} tracepoint follows the {@code pv_ops} one on the same CPU at the
     * same time), a promotion is not. A slot starts writable and each mprotect() flips it, so per
     * slot the calls alternate: sent (read-only), skipped (writable again), sent, ... A slot whose
     * calls begin with a skip had its first read-only mprotect() while the other thread was out of
     * mm_cpumask: flush_tlb_mm_range() flushed locally and never called the op.
     */
    @Test
    void aPromotionSendsNoShootdownAndADemotionDoes() {
        List<TraceEvent> events = new ArrayList<>();
        long skipped;
        long hazards;
        try (Guest g = mprotects(PromotionSkipFlush.NAME).tracePvOps(true).boot(0)) {
            g.trace().subscribe(events::add);
            g.run(Long.MAX_VALUE);
            assertEquals(0, g.liveTasks());
            skipped = g.vmstat().asMap().get(PromotionSkipFlush.SKIPPED);
            hazards = g.hazards().count();
        }
        String op = PromotionSkipFlush.NAME + ".flushTlbMulti: ";
        // flush_tlb_multi(cpumask, info) as the pv_ops tracepoint prints it: "{0,2} mm1 [start,end) gen 3"
        Pattern range = Pattern.compile("\\{[0-9,]+} (mm\\d+ \\[0x[0-9a-f]+,0x[0-9a-f]+\\)) gen \\d+");
        Map<String, String> bySlot = new TreeMap<>();
        int calls = 0;
        int sent = 0;
        for (int i = 0; i < events.size(); i++) {
            TraceEvent e = events.get(i);
            if (!e.name().equals("pv_ops") || !e.detail().startsWith(op)) {
                continue; // the other ops (tlb_remove_table, table_free_policy) are not this test's business
            }
            Matcher m = range.matcher(e.detail().substring(op.length()));
            assertTrue(m.matches(), "an mprotect of one slot, never a full flush: " + e.detail());
            calls++;
            TraceEvent next = i + 1 < events.size() ? events.get(i + 1) : null;
            boolean wentOut = next != null && next.reason() == TlbFlushReason.TLB_REMOTE_SEND_IPI
                    && next.cpu() == e.cpu() && next.time() == e.time();
            sent += wentOut ? 1 : 0;
            bySlot.merge(m.group(1), wentOut ? "sent" : "skipped", (a, b) -> a + " " + b);
        }
        assertEquals(20, calls, "mprotects that found the other thread in mm_cpumask");
        assertEquals(10, sent, "the demotions");
        assertEquals(10, skipped, "the promotions, counted by the design");
        assertEquals(calls, sent + skipped, "every call is either sent or skipped");
        assertEquals(Map.of(
                "mm1 [0x7f0000000000,0x7f0000008000)", "sent skipped sent",
                "mm1 [0x7f0000200000,0x7f0000208000)", "skipped sent skipped sent",
                "mm1 [0x7f0000400000,0x7f0000408000)", "sent skipped",
                "mm1 [0x7f0000600000,0x7f0000608000)", "sent skipped",
                "mm2 [0x7f0000000000,0x7f0000008000)", "sent skipped",
                "mm2 [0x7f0000200000,0x7f0000208000)", "sent skipped sent skipped",
                "mm2 [0x7f0000400000,0x7f0000408000)", "skipped",
                "mm2 [0x7f0000600000,0x7f0000608000)", "sent skipped"), bySlot,
                "per process 2 shared slots and one private to each of its 2 threads, 8 pages each");
        assertEquals(0, hazards, "the skipped CPUs never use a right the page table took away");
    }

    /**
     * The trade priced, against native on the same run (seed 1; the runs part ways at the first
     * skip, so each side is its own run, not the other minus the promotions). Fewer shootdowns and
     * less time in flush handlers; paid for in page faults (a store through a translation left
     * read-only faults and retries) and in full local flushes (flush_tlb_mm_range() bumped tlb_gen
     * before the op skipped, so the skipped CPU is more than one generation behind at its next flush of
     * the mm, and flush_tlb_func() then flushes everything: native has none, every range here is
     * 8 pages, under the ceiling of 33).
     */
    @Test
    void whatTheSkipSavesAndWhatItCosts() {
        RunReport nat = Runner.run(mprotects(NATIVE));
        RunReport own = Runner.run(mprotects(PromotionSkipFlush.NAME));
        assertEquals(List.of(17L, 10L), List.of(nat.counters().get("nr_tlb_remote_flush"), own.counters().get("nr_tlb_remote_flush")));
        assertEquals(List.of(16L, 9L), List.of(nat.counters().get("ipis_sent"), own.counters().get("ipis_sent")));
        assertEquals(10L, own.counters().get(PromotionSkipFlush.SKIPPED));
        assertEquals(List.of(21184L, 10382L), List.of(nat.cpuTimeNs().get("flush_handler"), own.cpuTimeNs().get("flush_handler")));
        assertEquals(List.of(64L, 74L), List.of(nat.counters().get("page_faults"), own.counters().get("page_faults")));
        assertEquals(List.of(0L, 5L), List.of(nat.counters().get("nr_tlb_local_flush_all"), own.counters().get("nr_tlb_local_flush_all")));
        assertEquals(0, own.hazards().size());
    }

    /**
     * The explorer's hunt on the torture as {@code pvtlb assess} runs it (speculative walks on,
     * x86's TSO store buffers, PCT of depth 3), under both table-free policies: no hazard in 1000
     * schedules each. The same hunt finds the careless skip ({@link SkipUnfreedMutant}) at once: a
     * CPU still loads through its writable translation after mprotect(PROT_READ) has returned.
     */
    @Test
    void safeWhereASloppierSkipIsNot() {
        for (String tableFree : List.of("immediate", "rcu")) {
            ExploreResult design = hunt(PromotionSkipFlush.NAME, tableFree);
            assertTrue(design.safe(), tableFree + ": " + design.hazard());
            assertEquals(1000, design.schedules());
            ExploreResult mutant = hunt(SkipUnfreedMutant.NAME, tableFree);
            assertFalse(mutant.safe(), tableFree);
            assertEquals(HazardKind.STALE_TRANSLATION, mutant.hazard().kind());
            assertEquals(1, mutant.schedules(), "the first schedule already has it");
        }
    }

    private static ExploreResult hunt(String backend, String tableFree) {
        Scenario s = Explorer.huntDefaults(mprotects(backend).set("tableFree", tableFree));
        return new Explorer(s).explore(new PctStrategy(1, 3), 1000, 600);
    }
}
