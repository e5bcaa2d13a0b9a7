package dev.pvtlb.scenario;

import dev.pvtlb.internal.kernel.Kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Op;
import dev.pvtlb.smp.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Scenario check 5: after every flush returns, no CPU that runs the mm, or that believes itself
 * up to date with the flush, holds a translation older than it. All 8 CPUs first read a shared
 * 256-page region, so every TLB holds its translations; CPU0 then unmaps it chunk by chunk
 * (10-page chunks flushed page by page, then 40-page ones flushed whole) and mprotects a part,
 * while the others keep touching the last 64 pages and some of them go idle (lazy) and return.
 */
class FlushCompletenessTest {
    private static TlbOracle run(GuestConfig cfg) {
        Scripted s = new Scripted(cfg);
        TlbOracle oracle = new TlbOracle(s.guest);
        s.guest.checker(oracle);
        long a = s.map(0, 256);
        long tail = a + 192 * Scripted.PAGE;
        for (int c = 1; c < 8; c++) {
            List<Op> ops = new ArrayList<>(List.of(Scripted.touch(a, 256, 2000), Scripted.touch(tail, 64, 20_000)));
            if (c >= 5) {
                ops.add(Scripted.sleep(20_000 * c));
                ops.add(Scripted.touch(tail, 64, 5_000));
            }
            ops.add(Scripted.touch(tail, 64, 20_000));
            s.spawn(c, ops.toArray(Op[]::new));
        }
        List<Op> zero = new ArrayList<>(List.of(Scripted.populate(a, 256), Scripted.sleep(30_000)));
        for (int k = 0; k < 6; k++) {
            zero.add(s.munmap(a + k * 10 * Scripted.PAGE, 10));
        }
        zero.add(s.mprotectRo(a + 60 * Scripted.PAGE, 20));
        for (int k = 0; k < 3; k++) {
            zero.add(s.munmap(a + (72 + k * 40) * Scripted.PAGE, 40));
        }
        s.spawn(0, zero.toArray(Op[]::new));
        s.run();
        assertEquals(0, s.guest.liveTasks());
        return oracle;
    }

    @ParameterizedTest
    @CsvSource({"skip,true,rcu", "skip,false,immediate", "ipi,true,ipi-sync", "off,true,rcu", "skip-nofree,true,rcu"})
    void noStaleTranslationSurvivesAReturnedFlush(String lazy, String concurrent, String tableFree) {
        GuestConfig cfg = GuestConfig.builder().topology(new Topology(1, 4, 2)).seed(21)
                .knob("lazy", lazy).knob("native.concurrentFlush", concurrent).knob("tableFree", tableFree).build();
        TlbOracle oracle = run(cfg);
        assertEquals(10, oracle.checks, "6 + 3 munmaps and one mprotect each returned one flush");
        assertTrue(oracle.violations.isEmpty(), () -> oracle.violations.get(0));
    }

    @ParameterizedTest
    @CsvSource({"false,false", "true,true", "true,false"})
    void theOracleCatchesTheSmtSiblingShortcutOnlyOnPrivateTlbs(String dedup, String shared) {
        GuestConfig cfg = GuestConfig.builder().topology(new Topology(1, 4, 2)).seed(21)
                .sharedSmtTlb(Boolean.parseBoolean(shared)).knob("native.smtSiblingDedup", dedup).build();
        TlbOracle oracle = run(cfg);
        if (Boolean.parseBoolean(dedup) && !Boolean.parseBoolean(shared)) {
            assertFalse(oracle.violations.isEmpty(), "a skipped sibling with its own TLB keeps stale entries");
            assertTrue(oracle.violations.get(0).startsWith("cpu4 "), oracle.violations.get(0));
        } else {
            assertTrue(oracle.violations.isEmpty(), () -> oracle.violations.get(0));
        }
    }
}
