package dev.pvtlb.cli;

import java.io.PrintWriter;

/**
 * Progress on stderr for work that takes longer than {@link #DELAY_S}: a bar with an ETA when
 * the amount of work is known, else a count of steps. Off when stderr is not a terminal or
 * with --quiet, so logs and pipes stay clean. Only reads the wall clock; never touches the model.
 */
final class ProgressBar {
    static final double DELAY_S = 2.0;
    private final PrintWriter err;
    private final boolean enabled;
    private final long start = System.nanoTime();
    private long lastDraw;
    private boolean drawn;

    ProgressBar(PrintWriter err, boolean quiet) {
        this.err = err;
        this.enabled = !quiet && System.console() != null;
    }

    /** {@code done} of {@code total} units finished; {@code what} says what is running now. */
    void update(double done, double total, String what) {
        if (!enabled) {
            return;
        }
        long now = System.nanoTime();
        double elapsed = (now - start) / 1e9;
        if (elapsed < DELAY_S || now - lastDraw < 200_000_000L) {
            return;
        }
        lastDraw = now;
        drawn = true;
        double f = total > 0 ? Math.min(1, done / total) : 0;
        int width = 24;
        int full = (int) Math.round(f * width);
        String eta = f > 0.01 ? String.format("ETA %.0f s", elapsed * (1 - f) / f) : "ETA ?";
        String line = String.format("\r[%s%s] %3.0f%% %s  %.0f s  %s", "#".repeat(full), " ".repeat(width - full), f * 100,
                eta, elapsed, what);
        err.print(line.length() > 100 ? line.substring(0, 100) : line);
        err.print("\u001b[K");
        err.flush();
    }

    /** Clears the bar (if one was drawn) before the results are printed. */
    void done() {
        if (drawn) {
            err.print("\r\u001b[K");
            err.flush();
        }
    }
}
