package dev.pvtlb.explore;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The shared state of a hunt in windows ({@link Explorer#exploreWindows}) on one or more workers,
 * each on a guest of its own: worker w runs base runs w, w + workers, w + 2 workers... Window k of
 * base run b takes the choices of the strategy's schedule {@code b * WINDOWS_PER_BASE + k}, so
 * which choices a window gets does not depend on which worker ran it or when. Windows are ordered
 * by (base run, window): a hazard found stops the bases after its own, while the bases before it
 * run on (one of them may hold an earlier hazard); the hazard reported is the earliest, and its
 * number counts the windows before it in that order. So when neither budget cuts the hunt short,
 * several workers report what one reports.
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
    /*
     * The budget's units: every window and every base run (a whole schedule from boot itself, and
     * all a workload with no flush to branch at gets), reserved before it runs; windows are the
     * units that are not base runs.
     */
    private final AtomicLong units = new AtomicLong();
    private final AtomicLong baseRuns = new AtomicLong();
    /** Windows run in each base run, for the number of the hazard reported. */
    private final ConcurrentHashMap<Long, Long> perBase = new ConcurrentHashMap<>();
    private volatile boolean outOfBudget;
    /** Order number (base * WINDOWS_PER_BASE + window) of the earliest hazard found so far, or Long.MAX_VALUE. */
    private volatile long foundNumber = Long.MAX_VALUE;
    private ScheduleRun found;
    private boolean foundByBaseRun;
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

    /** Whether window {@code number} (or a base starting there) still has a purpose and a budget. */
    private boolean going(long number) {
        if (number > foundNumber || outOfBudget || failure != null) {
            return false;
        }
        if (units.get() >= budgetWindows || (System.nanoTime() - start) / 1e9 >= budgetSeconds) {
            outOfBudget = true;
            return false;
        }
        return true;
    }

    /**
     * Takes one unit of the budget for window or base run {@code number}: false when it is spent or
     * what it would run has no purpose.
     */
    private boolean reserve(long number, boolean baseRun) {
        if (!going(number)) {
            return false;
        }
        long n;
        do {
            n = units.get();
            if (n >= budgetWindows) {
                outOfBudget = true;
                return false;
            }
        } while (!units.compareAndSet(n, n + 1));
        if (baseRun) {
            baseRuns.incrementAndGet();
        }
        return true;
    }

    /** One worker's share: its base runs, each with its windows, until the hunt ends. */
    void work(ScheduleRunner runner, int worker) {
        try {
            for (long b = worker; reserve(b * WINDOWS_PER_BASE, true); b += workers) {
                long base = b;
                long[] k = {0};
                ScheduleRun run = runner.runWindows(bases.schedule((int) Math.min(b, Integer.MAX_VALUE)), windowNs,
                        Explorer.WINDOWS_PER_CHECKPOINT, i -> strategy.schedule((int) (base * WINDOWS_PER_BASE + i)), 0,
                        new ScheduleRunner.WindowListener() {
                            @Override
                            public boolean next() {
                                return reserve(base * WINDOWS_PER_BASE + k[0], false);
                            }

                            @Override
                            public boolean window(ScheduleRun w, java.util.List<Choice> prefixOf, int prefix) {
                                long number = base * WINDOWS_PER_BASE + k[0]++;
                                perBase.merge(base, 1L, Long::sum);
                                if (workers == 1) {
                                    strategy.finished(w.choices());
                                }
                                if (w.found()) {
                                    report(ScheduleRunner.whole(w, prefixOf, prefix), number, false);
                                    return false;
                                }
                                return true;
                            }
                        });
                if (run.found()) {
                    // The base run's own hazard comes after the windows it branched before it.
                    report(run, base * WINDOWS_PER_BASE + k[0], true);
                }
            }
        } catch (RuntimeException e) {
            synchronized (this) {
                if (failure == null) {
                    failure = e;
                }
            }
        }
    }

    private synchronized void report(ScheduleRun r, long number, boolean byBaseRun) {
        if (number < foundNumber) {
            found = r;
            foundNumber = number;
            foundByBaseRun = byBaseRun;
        }
    }

    /** Whether the reported hazard was met by a base run itself rather than in one of its windows. */
    synchronized boolean foundByBaseRun() {
        return foundByBaseRun;
    }

    /** The base run (from 0) of the reported hazard. */
    synchronized long foundBase() {
        return foundNumber / WINDOWS_PER_BASE;
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

    /**
     * The reported hazard's place: the windows of the base runs before its own, then its own up to
     * it (from 1); for a hazard a base run met itself, the windows before it (from 0).
     */
    synchronized long foundAt() {
        long base = foundNumber / WINDOWS_PER_BASE;
        long at = foundNumber % WINDOWS_PER_BASE + (foundByBaseRun ? 0 : 1);
        for (long b = 0; b < base; b++) {
            at += perBase.getOrDefault(b, 0L);
        }
        return at;
    }

    long windows() {
        return units.get() - baseRuns.get();
    }

    long bases() {
        return baseRuns.get();
    }
}
