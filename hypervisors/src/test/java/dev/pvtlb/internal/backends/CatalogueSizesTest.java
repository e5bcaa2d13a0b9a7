package dev.pvtlb.internal.backends;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.explore.ExploreResult;
import dev.pvtlb.explore.Explorer;
import dev.pvtlb.explore.RandomStrategy;
import dev.pvtlb.hazard.HazardKind;
import dev.pvtlb.model.ModelException;
import dev.pvtlb.run.Scenario;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The catalogue's verdicts hold as the machine grows: every variant of {@link CatalogueTest} but
 * those that fix their machine ({@code vcpus=}), at {@code cpus} 4, 8 and 16 (bystander threads of
 * the race's mm on the CPUs its roles leave free), with schedule budgets: each unsafe variant is
 * found for seed 1 within {@value #FIND_BUDGET} schedules with its hazard kind, each safe variant
 * runs {@value #SAFE_BUDGET} schedules clean. The one verdict that changes with size is a size-gated
 * design's, checked on its own below.
 */
class CatalogueSizesTest {
    static final int FIND_BUDGET = 10_000;
    static final int SAFE_BUDGET = 300;
    static final int DEFAULTS_BUDGET = 100;
    static final int[] SIZES = {4, 8, 16};

    static Stream<Arguments> sized(String[] rows) {
        return Arrays.stream(rows).filter(r -> !r.contains("vcpus=")).flatMap(r -> Arrays.stream(SIZES).mapToObj(n -> {
            String[] p = r.split("; ", -1);
            return p.length == 4 ? Arguments.of(p[0], p[1], p[2], p[3], n) : Arguments.of(p[0], p[1], p[2], n);
        }));
    }

    /** Every catalogue entry on every shipped backend (those of the model's own packages; the test backends excepted). */
    static Stream<Arguments> everyEntryOnEveryBackend() {
        List<String> backends = dev.pvtlb.pvops.PvBackends.all().entrySet().stream()
                .filter(e -> e.getValue().getClass().getName().startsWith("dev.pvtlb.internal.")).map(Map.Entry::getKey).sorted().toList();
        return dev.pvtlb.internal.workload.catalogue.Workloads.catalogue().stream()
                .flatMap(w -> backends.stream().map(b -> Arguments.of(w.name(), b)));
    }

    static Stream<Arguments> unsafe() {
        return sized(CatalogueTest.UNSAFE);
    }

    static Stream<Arguments> safe() {
        return sized(CatalogueTest.SAFE);
    }

    static Scenario sized(String name, String backend, String sets, int cpus, long seed) {
        return Explorer.huntDefaults(CatalogueTest.scenario(name, backend, sets, seed).set("cpus", Integer.toString(cpus)));
    }

    @ParameterizedTest(name = "{0} {1} {2} cpus={4}")
    @MethodSource("unsafe")
    void unsafeVariantsStayUnsafe(String name, String backend, String sets, String kind, int cpus) {
        ExploreResult r = new Explorer(sized(name, backend, sets, cpus, 1)).explore(new RandomStrategy(1), FIND_BUDGET, 1e9);
        assertFalse(r.safe(), name + " " + sets + " at " + cpus + " CPUs: nothing in " + r.schedules() + " schedules");
        assertEquals(HazardKind.valueOf(kind), r.hazard().kind(), r.hazard().toString());
        System.out.printf("catalogue %s [%s] %s cpus=%d: first hit at schedule %d%n", name, backend, sets, cpus, r.foundAt());
    }

    @ParameterizedTest(name = "{0} {1} {2} cpus={3}")
    @MethodSource("safe")
    void safeVariantsStaySafe(String name, String backend, String sets, int cpus) {
        ExploreResult r = new Explorer(sized(name, backend, sets, cpus, 7)).explore(new RandomStrategy(7), SAFE_BUDGET, 1e9);
        assertTrue(r.safe(), () -> cpus + " CPUs: " + r.hazard() + "\n" + String.join("\n", r.trace()));
        assertEquals(SAFE_BUDGET, r.schedules());
    }

    /**
     * No false alarm from size: every entry at its defaults (the kernel's fixes) is SAFE on every
     * backend at every size it runs at, 2 (where its roles allow), 4, 8 and 16 CPUs, so a hazard
     * the bystanders bring comes from the design under test, not from the scaling.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyEntryOnEveryBackend")
    void everyEntryAtItsDefaultsIsSafeAtEverySize(String name, String backend) {
        for (int cpus : new int[] {2, 4, 8, 16}) {
            Scenario s;
            try {
                s = sized(name, backend, "", cpus, 3);
                s.guestConfig(0);
            } catch (ModelException e) {
                // Only 2 may be below an entry's roles (3 or 4 of them).
                assertEquals(2, cpus, e.getMessage());
                assertTrue(e.getMessage().matches(java.util.regex.Pattern.quote(name) + ": parameter cpus must be between [34] and 64, got 2"),
                        e.getMessage());
                continue;
            }
            int n = cpus;
            ExploreResult r = new Explorer(s).explore(new RandomStrategy(3), DEFAULTS_BUDGET, 1e9);
            assertTrue(r.safe(), () -> n + " CPUs: " + r.hazard());
        }
    }

    /**
     * The size-gated design: INVLPGB broadcasts only for an mm active on 4 or more CPUs
     * (consider_global_asid()). At 2 CPUs its flushes are native IPIs, which wait for the
     * IRQs-off gup_fast walker, so an immediate table free is safe; from 4 CPUs on the broadcast
     * does not wait for the walker (an NMI inside the walk, a choice of the explorer, outlasts
     * it) and the table is freed under it. Linux 6.15, which brought INVLPGB, made RCU table
     * freeing unconditional on x86 for that reason: its preset is safe at every size.
     */
    @ParameterizedTest(name = "cpus={0}")
    @CsvSource({"2, 0", "4, 37", "8, 1", "16, 13"})
    void invlpgbFreesUnderTheWalkerOnlyWhereItBroadcasts(int cpus, long firstHit) {
        ExploreResult immediate = new Explorer(sized("gup-fast-vs-free", "invlpgb", "tableFree=immediate", cpus, 1))
                .explore(new RandomStrategy(1), FIND_BUDGET, 1e9);
        if (cpus < 4) {
            assertTrue(immediate.safe(), () -> immediate.hazard().toString());
        } else {
            assertFalse(immediate.safe(), cpus + " CPUs: nothing in " + immediate.schedules() + " schedules");
            assertEquals(HazardKind.WALK_AFTER_FREE, immediate.hazard().kind());
            assertEquals(firstHit, immediate.foundAt());
        }
        ExploreResult preset = new Explorer(sized("gup-fast-vs-free", "invlpgb", "kernel=6.15", cpus, 1))
                .explore(new RandomStrategy(1), SAFE_BUDGET, 1e9);
        assertTrue(preset.safe(), () -> preset.hazard().toString());
    }

    @Test
    void theBroadcastEngagesFromFourCpus() {
        long[] broadcasts = Arrays.stream(new int[] {2, 4, 8, 16}).mapToLong(n -> {
            Scenario s = CatalogueTest.scenario("gup-fast-vs-free", "invlpgb", "tableFree=immediate", 1).set("cpus", Integer.toString(n));
            return dev.pvtlb.run.Runner.run(s).counters().get("broadcast_flushes");
        }).toArray();
        assertEquals("[0, 1, 1, 1]", Arrays.toString(broadcasts));
    }

    @Test
    void aSizeBelowTheRolesOrAnOddSmtSizeIsRefused() {
        ModelException few = org.junit.jupiter.api.Assertions.assertThrows(ModelException.class,
                () -> dev.pvtlb.run.Runner.run(CatalogueTest.scenario("madvise-nested-flush", "native", "cpus=2", 1)));
        assertEquals("madvise-nested-flush: parameter cpus must be between 3 and 64, got 2", few.getMessage());
        ModelException odd = org.junit.jupiter.api.Assertions.assertThrows(ModelException.class,
                () -> dev.pvtlb.run.Runner.run(CatalogueTest.scenario("smt-sibling-dedup", "native", "cpus=5", 1)));
        assertEquals("smt-sibling-dedup: parameter cpus must be a multiple of 2 (cores of SMT siblings), got 5", odd.getMessage());
    }
}
