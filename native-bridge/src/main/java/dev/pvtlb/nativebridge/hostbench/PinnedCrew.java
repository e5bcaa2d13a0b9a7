package dev.pvtlb.nativebridge.hostbench;

import dev.pvtlb.nativebridge.NativeOs;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Platform threads, each pinned to one CPU with sched_setaffinity, that run a task per
 * round and spin in between. Spinning, not parking, is the point: a CPU that stays in
 * this process's address space keeps its bit in mm_cpumask, so every flush of the
 * address space must reach it (an idle CPU in lazy TLB mode may be skipped).
 * Every wait is bounded by {@code giveUpAt}.
 */
final class PinnedCrew implements AutoCloseable {
    private final Thread[] workers;
    private final AtomicInteger round = new AtomicInteger();
    private final AtomicInteger done = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final long giveUpAt;
    private volatile IntConsumer task = worker -> {};
    private volatile boolean stopping;

    PinnedCrew(NativeOs os, int[] cpus, long giveUpAt) {
        this.giveUpAt = giveUpAt;
        this.workers = new Thread[cpus.length];
        CountDownLatch pinned = new CountDownLatch(cpus.length);
        for (int i = 0; i < cpus.length; i++) {
            int index = i;
            int cpu = cpus[i];
            workers[i] = Thread.ofPlatform().daemon().name("pvtlb-crew-" + i + "-cpu" + cpu)
                    .unstarted(() -> work(os, cpu, index, pinned));
        }
        for (Thread t : workers) {
            t.start();
        }
        try {
            if (!pinned.await(5, TimeUnit.SECONDS)) {
                throw new IllegalStateException("crew threads did not start within 5 s");
            }
            rethrowFailure(); // e.g. sched_setaffinity refused a CPU
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while starting the crew", e);
        } catch (RuntimeException | Error e) {
            close(); // no caller will: stop the workers that did get pinned
            throw e;
        }
    }

    /** Starts a round: each worker runs {@code task} with its index once. */
    void start(IntConsumer roundTask) {
        done.set(0);
        task = roundTask;
        round.incrementAndGet();
    }

    boolean finished() {
        return done.get() == workers.length;
    }

    /** Spins until every worker finished the round; rethrows what a worker threw. */
    void await() {
        while (!finished()) {
            rethrowFailure();
            if (System.nanoTime() - giveUpAt > 0) {
                throw new IllegalStateException("crew did not finish its round within the run limit");
            }
            Thread.onSpinWait();
        }
        rethrowFailure();
    }

    @Override
    public void close() {
        stopping = true;
        for (Thread t : workers) {
            try {
                t.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Runs {@code body} on a fresh platform thread pinned to {@code cpu}, so the caller's affinity is untouched. */
    static <T> T callPinned(NativeOs os, int cpu, Supplier<T> body) {
        AtomicReference<T> result = new AtomicReference<>();
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread initiator = Thread.ofPlatform().name("pvtlb-initiator-cpu" + cpu).unstarted(() -> {
            try {
                os.setAffinity(cpu);
                result.set(body.get());
            } catch (Throwable t) {
                thrown.set(t);
            }
        });
        initiator.start();
        try {
            initiator.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the initiator", e);
        }
        rethrow(thrown.get());
        return result.get();
    }

    private void work(NativeOs os, int cpu, int index, CountDownLatch pinned) {
        try {
            os.setAffinity(cpu);
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            return;
        } finally {
            pinned.countDown();
        }
        int seen = 0;
        long spins = 0;
        while (!stopping && System.nanoTime() - giveUpAt < 0) {
            int r = round.get();
            if (r != seen) {
                seen = r;
                try {
                    task.accept(index);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
                done.incrementAndGet();
            } else {
                Thread.onSpinWait();
                if ((++spins & 0x3ff) == 0) {
                    Thread.yield(); // lets the initiator in when both are pinned to one CPU
                }
            }
        }
    }

    private void rethrowFailure() {
        rethrow(failure.get());
    }

    private static void rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new IllegalStateException(t);
        }
    }
}
