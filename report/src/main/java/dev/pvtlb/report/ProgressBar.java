package dev.pvtlb.report;

import java.io.PrintWriter;

/**
 * Progress on stderr for work that takes longer than {@link #DELAY_S}: a bar with an ETA and what
 * is running now. Drawn only when this JVM's console is a terminal ({@link java.io.Console#isTerminal}:
 * since JDK 22 {@code System.console()} is not null for a pipe either) and not {@code --quiet}, so
 * logs, pipes and tests stay clean. Reads the wall clock only; never touches the model.
 */
public final class ProgressBar {
    static final double DELAY_S = 2.0;
    private static final int WIDTH = 24;
    private final PrintWriter err;
    private final boolean enabled;
    private final long start = System.nanoTime();
    private long lastDraw;
    private boolean drawn;

    public ProgressBar(PrintWriter err, boolean quiet) {
        this.err = err;
        this.enabled = !quiet && isTerminal();
    }

    private static boolean isTerminal() {
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }

    /** {@code done} of {@code total} units finished; {@code what} says what is running now. */
    public synchronized void update(double done, double total, String what) {
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
        err.print(line(done, total, elapsed, what));
        err.print("\u001b[K");
        err.flush();
    }

    /** The bar as drawn after {@code elapsed} seconds, at most 100 characters. */
    static String line(double done, double total, double elapsed, String what) {
        double f = total > 0 ? Math.min(1, done / total) : 0;
        int full = (int) Math.round(f * WIDTH);
        String eta = f > 0.01 ? String.format(java.util.Locale.ROOT, "ETA %.0f s", elapsed * (1 - f) / f) : "ETA ?";
        String line = String.format(java.util.Locale.ROOT, "\r[%s%s] %3.0f%% %s  %.0f s  %s", "#".repeat(full),
                " ".repeat(WIDTH - full), f * 100, eta, elapsed, what);
        return line.length() > 100 ? line.substring(0, 100) : line;
    }

    /** Clears the bar (if one was drawn) before the results are printed. */
    public synchronized void done() {
        if (drawn) {
            err.print("\r\u001b[K");
            err.flush();
        }
    }
}
