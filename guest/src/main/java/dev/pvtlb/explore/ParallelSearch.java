package dev.pvtlb.explore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The explorer's search over an independent strategy's schedules on several threads, each with a
 * {@link ScheduleRunner} (a guest) of its own. Workers take schedule numbers in order from one
 * counter and stop taking them once a lower-numbered schedule has found a hazard; since every
 * number below a taken one was taken first, the search ends with every schedule before the
 * lowest-numbered find run, so its result (that schedule, and that many schedules run) is the one
 * a single thread taking them in order finds.
 */
final class ParallelSearch {
    private final Strategy strategy;
    private final long budget;
    private final long start;
    private final double seconds;
    private final AtomicLong next = new AtomicLong();
    private final AtomicLong lowestFind = new AtomicLong(Long.MAX_VALUE);
    private final AtomicLong run = new AtomicLong();
    private ScheduleRun found;
    /** The first-numbered schedule that threw, and what (a single thread stops there too, unless it found a hazard first). */
    private long failureAt = Long.MAX_VALUE;
    private RuntimeException failure;

    ParallelSearch(Strategy strategy, long budget, long start, double seconds) {
        this.strategy = strategy;
        this.budget = budget;
        this.start = start;
        this.seconds = seconds;
    }

    /** Searches on {@code own} (this thread) and {@code workers - 1} more threads, each with a runner from {@code runners}. */
    void run(ScheduleRunner own, int workers, Supplier<ScheduleRunner> runners) {
        List<Thread> threads = new ArrayList<>();
        for (int w = 1; w < workers; w++) {
            Thread t = Thread.ofPlatform().name("pvtlb-explore-" + w).start(() -> {
                try (ScheduleRunner r = runners.get()) {
                    work(r);
                } catch (RuntimeException e) {
                    fail(-1, e);
                }
            });
            threads.add(t);
        }
        work(own);
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the explorer's workers ran", e);
            }
        }
        synchronized (this) {
            if (failure != null && failureAt < lowestFind.get()) {
                throw failure;
            }
        }
    }

    private void work(ScheduleRunner runner) {
        while (true) {
            long i = next.getAndIncrement();
            if (i >= budget || i > lowestFind.get() || i > failedAt() || (System.nanoTime() - start) / 1e9 >= seconds) {
                return;
            }
            ScheduleRun r;
            try {
                r = runner.run(strategy.schedule((int) Math.min(i, Integer.MAX_VALUE)), 0);
            } catch (RuntimeException e) {
                fail(i, e);
                return;
            }
            run.incrementAndGet();
            if (r.found()) {
                synchronized (this) {
                    if (i < lowestFind.get()) {
                        lowestFind.set(i);
                        found = r;
                    }
                }
            }
        }
    }

    /** Schedule {@code i} threw {@code e} (-1: a worker's guest could not be made). */
    private synchronized void fail(long i, RuntimeException e) {
        if (i < failureAt) {
            failureAt = i;
            failure = e;
        }
    }

    private synchronized long failedAt() {
        return failureAt;
    }

    /** The hazard-finding schedule with the lowest number, or null. */
    synchronized ScheduleRun found() {
        return found;
    }

    /** Schedules counted as a single thread would: up to the lowest-numbered find, else all that ran. */
    synchronized long schedules() {
        return found != null ? lowestFind.get() + 1 : run.get();
    }
}
