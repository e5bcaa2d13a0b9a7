package dev.pvtlb;

import dev.pvtlb.config.GuestConfig;
import dev.pvtlb.internal.kernel.Kernel;
import dev.pvtlb.internal.kernel.KernelBoot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pvtlb.run.Scenario;
import dev.pvtlb.internal.sim.SeededChooser;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A reset guest runs exactly as a freshly booted one (the explorer relies on it). */
class GuestResetTest {
    private record Outcome(long steps, long now, Map<String, Long> counters, Map<String, Long> time, List<String> hazards) { }

    private static Outcome run(Kernel g, Scenario s) {
        s.setUp((Guest) g.facade());
        g.engine().run(Long.MAX_VALUE, 10_000_000);
        return new Outcome(g.engine().steps(), g.engine().now(), g.vmstat().asMap(), g.cpuTime().totals(),
                g.hazards().hazards().stream().map(Object::toString).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"lazy-speculative-walk:lazy=skip-nofree", "smt-sibling-dedup:native.smtSiblingDedup=true",
        "madvise-nested-flush:nestedFlush=skip", "munmap-storm:ops=3"})
    void aResetGuestRunsAsAFreshOne(String spec) {
        String[] p = spec.split(":");
        Scenario s = Scenario.of(p[0]).seed(5).defaultQuantum(0);
        String[] kv = p[1].split("=");
        s.set(kv[0], kv[1]);
        GuestConfig cfg = s.guestConfig(0);
        Outcome fresh;
        try (Kernel g = KernelBoot.boot(cfg, new SeededChooser(42))) {
            fresh = run(g, s);
        }
        try (Kernel g = KernelBoot.boot(cfg, new SeededChooser(7))) {
            run(g, s); // a different schedule first, leaving state behind
            g.reset(new SeededChooser(42));
            assertEquals(fresh, run(g, s));
            // A run stopped in the middle (as the explorer stops at a hazard) leaves paths half done.
            for (long cut : new long[] {37, 211, 1_000}) {
                g.reset(new SeededChooser(9));
                s.setUp((Guest) g.facade());
                g.engine().run(Long.MAX_VALUE, cut);
                g.reset(new SeededChooser(42));
                assertEquals(fresh, run(g, s), "after a run cut at step " + cut);
            }
            g.reset(new SeededChooser(42));
            assertEquals(fresh, run(g, s));
            g.reset(new SeededChooser(42));
            assertEquals(fresh, run(g, s), "and again");
        }
    }
}
