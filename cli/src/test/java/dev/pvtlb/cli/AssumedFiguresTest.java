package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class AssumedFiguresTest {
    @Test
    void aKeyIsAssumedWhenItsCommentSaysSoAndKeysBelowWithoutCommentsJoinIt() {
        String text = """
                # Where no figure was found the value is marked ASSUMED.

                name: p
                # Sourced (a manual).
                a.ns: 1
                # ASSUMED small caches.
                b.one: 2
                b.two: 3

                c.ns: 4
                # --- section: every figure below is ASSUMED
                # ASSUMED: one instruction.
                d.ns: 5
                # Sourced again.
                e.ns: 6
                """;
        assertEquals(List.of("b.one", "b.two", "d.ns"), AssumedFigures.in(text));
    }

    @Test
    void theBuiltInProfileHasAssumedFiguresAndNoRangesToVary() {
        List<String> keys = AssumedFigures.in(AssumedFigures.builtIn("x86-skylake"));
        assertTrue(keys.containsAll(List.of("psc.pde", "ipi.send.ns", "fault.ns", "pte.op.ns", "tlbi.sync.ns")), keys.toString());
        assertFalse(keys.contains("invlpg.ns") || keys.contains("tlbi.max_ops") || keys.contains("tlb.entries"), keys.toString());
        String why = AssumedFigures.whySensitivityCannotRun("x86-skylake");
        assertTrue(why.startsWith("--sensitivity: profile x86-skylake gives no machine-readable low..high range for any of its "
                + keys.size() + " ASSUMED figures (psc.pml4e, "), why);
        assertEquals(1, why.lines().count());
    }
}
