package dev.pvtlb.explore;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The shared state of a hunt in windows ({@link Explorer#exploreWindows}) on one or more workers,
 * each on a guest of its own: worker w runs base runs w, w + workers, w + 2 workers... Window k of
 * base run b takes the choices of the strategy's schedule {@code b * WINDOWS_PER_BASE + k}, so
 * which choices a window gets does not depend on which worker ran it or when. The first hazard
 * found stops every worker; with several, the one reported is the lowest-numbered of those found.
 */
final class WindowHunt {
    /** Window numbers reserved per base run: munmap-storm's 10 ms at 16 vCPUs starts about 3,000 flushes. */
    static final int WINDOWS_PER_BASE = 1 << 16;

    private final Strategy strategy;
    private final long windowNs;
    private final long budgetWindows;
    private final long start;
    private final double budgetSeconds;
    private final int workers;
    /** Base runs: choices from a stream of their own, so that base b's warm state does not follow a window's. */
    private final RandomStrategy bases;
    private final AtomicLong windows = new AtomicLong();
    private final AtomicLong baseRuns = new AtomicLong();
    private volatile boolean stop;
    private ScheduleRun found;
    private long foundNumber = Long.MAX_VALUE;
    private long foundAt;
    private RuntimeException failure;

    WindowHunt(Strategy strategy, long seed, long windowNs, long budgetWindows, long start, double budgetSeconds, int workers) {
        this.strategy = strategy;
        this.windowNs = windowNs;
        this.budgetWindows = budgetWindows;
        this.start = start;
        this.budgetSeconds = budgetSeconds;
        this.workers = workers;
        this.bases = new RandomStrategy(seed ^ 0x62617365L);
    }

    private boolean going() {
        return !stop && windows.get() < budgetWindows && (System.nanoTime() - start) / 1e9 < budgetSeconds;
    }

    /** One worker's share: its base runs, each with its windows, until the hunt ends. */
    void work(ScheduleRunner runner, int worker) {
        try {
            for (long b = worker; going(); b += workers) {
                long base = b;
                long[] k = {0};
                ScheduleRun run = runner.runWindows(bases.schedule((int) Math.min(b, Integer.MAX_VALUE)), windowNs,
                        Explorer.WINDOWS_PER_CHECKPOINT, i -> strategy.schedule((int) (base * WINDOWS_PER_BASE + i)), 0,
                        (w, prefixOf, prefix) -> {
                            long n = windows.incrementAndGet();
                            long number = base * WINDOWS_PER_BASE + k[0]++;
                            if (workers == 1) {
                                strategy.finished(w.choices());
                            }
                            if (w.found()) {
                                report(ScheduleRunner.whole(w, prefixOf, prefix), number, n);
                                return false;
                            }
                            return going();
                        });
                baseRuns.incrementAndGet();
                if (run.found()) {
                    report(run, base * WINDOWS_PER_BASE + WINDOWS_PER_BASE - 1, windows.get());
                }
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                if (failure == null) {
                    failure = e;
                }
            }
            stop = true;
        }
    }

    private synchronized void report(ScheduleRun r, long number, long count) {
        if (number < foundNumber) {
            found = r;
            foundNumber = number;
            foundAt = count;
        }
        stop = true;
    }

    /** A worker's failure (a model that cannot be branched, say), thrown on the caller's thread. */
    void rethrow() {
        if (failure != null) {
            throw failure;
        }
    }

    synchronized ScheduleRun found() {
        return found;
    }

    /** How many windows had run when the reported hazard was found (counting from 1). */
    synchronized long foundAt() {
        return foundAt;
    }

    long windows() {
        return windows.get();
    }

    long bases() {
        return Math.max(1, baseRuns.get());
    }
}
