package dev.pvtlb.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.model.NoProgressException;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** A model the watchdog stopped: exit code 4 and its one line, documented in {@code pvtlb --help}. */
class NoProgressExitTest {
    @Test
    void aStalledModelExitsWithFourAndOneLine() {
        StringWriter err = new StringWriter();
        int code = Main.failed(new NoProgressException("cpu3 in do_idle > user:t3 > stuck_path ran 16777216 steps at"
                + " virtual time 5000 ns without the clock advancing: the model makes no progress"), new PrintWriter(err, true), false);
        assertEquals(4, code);
        assertEquals("pvtlb: cpu3 in do_idle > user:t3 > stuck_path ran 16777216 steps at virtual time 5000 ns without the"
                + " clock advancing: the model makes no progress\n", err.toString());
    }

    @Test
    void theHelpListsEveryExitCode() {
        MainTest.Result r = MainTest.pvtlb("--help");
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        assertTrue(out.contains("\nExit codes:\n"), out);
        for (String line : new String[] {"  0   success", "  1   a hazard was found", "  2   bad input", "  3   internal error",
            "  4   the model made no progress"}) {
            assertTrue(out.contains("\n" + line), line + " in\n" + out);
        }
    }
}
