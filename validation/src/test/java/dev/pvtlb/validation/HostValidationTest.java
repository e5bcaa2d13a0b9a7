package dev.pvtlb.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** validate --host's arithmetic over its rounds (the command end to end is cli's ValidateHostTest). */
class HostValidationTest {
    @Test
    void theFiguresAreMediansOverTheRoundsAndTheSpreadIsTheRoundsStandardError() {
        assertEquals(2.0, HostValidation.median(new double[] {3, 1, 2}));
        assertEquals(2.5, HostValidation.median(new double[] {4, 1, 3, 2}));
        // Sample stdev of {1, 2, 3} is 1; over sqrt(3) rounds.
        assertEquals(1 / Math.sqrt(3), HostValidation.standardError(new double[] {1, 2, 3}), 1e-12);
        assertTrue(Double.isNaN(HostValidation.standardError(new double[] {5})), "one round has no spread");
    }
}
