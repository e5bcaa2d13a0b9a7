package dev.pvtlb.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pvtlb.config.Fidelity;
import dev.pvtlb.model.ModelException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fidelity level: exact is the default and the model step by step; fast takes a fault that
 * ends before the next event inside its batch of user accesses, costing and booking it as the
 * exact level's steps would, so every figure is the same.
 */
class FidelityLevelTest {
    private static Scenario storm() {
        return Scenario.of("munmap-storm").seed(1).set("vcpus", "4").set("threads", "4").set("ops", "2");
    }

    /** The report as data without what differs by level on purpose: host timing, steps and the level's name. */
    private static Map<String, Object> figures(RunReport r) {
        Map<String, Object> m = new LinkedHashMap<>(r.toMap());
        m.remove("host_timing");
        m.remove("sim");
        m.remove("fidelity");
        return m;
    }

    @Test
    void exactIsTheDefaultAndTheReportNamesTheLevel() {
        RunReport byDefault = Runner.run(storm());
        RunReport exact = Runner.run(storm().set("fidelity", "exact"));
        assertEquals("exact", byDefault.fidelity());
        assertEquals("exact", byDefault.toMap().get("fidelity"));
        assertEquals(2426, byDefault.steps());
        assertEquals(byDefault.steps(), exact.steps());
        assertEquals(figures(byDefault), figures(exact));
        assertEquals("fast", Runner.run(storm().defaultFidelity(Fidelity.FAST)).fidelity(), "a command's default");
        assertEquals("exact", Runner.run(storm().set("fidelity", "exact").defaultFidelity(Fidelity.FAST)).fidelity(),
                "a setting wins over the command's default");
    }

    @Test
    void fastTakesFaultsInsideTheirBatchAndEveryFigureStaysExactlyTheSame() {
        // munmap-storm's default machine and size: four cores of two threads, 800 munmaps.
        Scenario s = Scenario.of("munmap-storm").seed(1);
        RunReport exact = Runner.run(s);
        RunReport fast = Runner.run(s.copy().set("fidelity", "fast"));
        assertEquals("fast", fast.fidelity());
        // A fault that ends before the next event runs inside its batch's step: the fault and the
        // mmap_lock release are not steps of their own, and the batch after it goes on in the same step.
        assertEquals(159_745, exact.steps());
        assertEquals(159_349, fast.steps());
        assertEquals(figures(exact), figures(fast));
        assertEquals(53_248L, fast.counters().get("page_faults"));
    }

    @Test
    void fastIsDeterministic() {
        Scenario s = Scenario.of("sysbench-mmap-rndwr").seed(3).set("fidelity", "fast").set("vcpus", "8").set("threads", "8").set("ops", "50");
        RunReport a = Runner.run(s);
        RunReport b = Runner.run(s);
        assertEquals(figures(a), figures(b));
        assertEquals(a.steps(), b.steps());
        assertEquals(figures(Runner.run(s.copy().set("fidelity", "exact"))), figures(a), "the same figures as exact");
    }

    @Test
    void anUnknownLevelIsOneLineOfError() {
        ModelException e = assertThrows(ModelException.class, () -> storm().set("fidelity", "quick"));
        assertEquals("fidelity must be exact or fast, got 'quick'", e.getMessage());
    }
}
