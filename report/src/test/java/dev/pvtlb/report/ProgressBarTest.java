package dev.pvtlb.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProgressBarTest {
    @Test
    void theBarShowsTheFractionAndAnEta() {
        assertEquals("\r[############            ]  50% ETA 10 s  10 s  run 2 of 4", ProgressBar.line(2, 4, 10, "run 2 of 4"));
        assertEquals("\r[                        ]   0% ETA ?  0 s  start", ProgressBar.line(0, 0, 0, "start"));
        assertTrue(ProgressBar.line(1, 2, 1, "x".repeat(200)).length() <= 100, "one terminal line at most");
    }
}
