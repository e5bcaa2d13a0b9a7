package dev.pvtlb.study;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.model.NoProgressException;
import dev.pvtlb.report.OneLine;
import dev.pvtlb.report.ProgressBar;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.function.ObjIntConsumer;

/**
 * Independent runs on a pool of local threads, results in the items' order whatever order they
 * finish in (each run is deterministic on its own, so any pool size gives the same results).
 * The first run to fail stops the batch, named: a refused run ({@link ModelException}) or one
 * the engine's watchdog stopped ({@link NoProgressException}). Used by {@code sweep} and
 * {@code validate}.
 */
public final class LocalRuns {
    private LocalRuns() {}

    /**
     * Runs {@code work} on each item, {@code parallel} at once, on daemon threads called
     * {@code threadName} (a failed batch must not keep the JVM alive), counting finished runs
     * on {@code progress}.
     */
    public static <T, R> List<R> run(List<T> items, int parallel, Function<T, R> work, Function<T, String> name,
                                     String threadName, ProgressBar progress) throws InterruptedException {
        return run(items, parallel, work, name, threadName, progress, (r, k) -> { });
    }

    /**
     * {@link #run(List, int, Function, Function, String, ProgressBar)}, handing {@code finished}
     * each item's result and index as its run completes, on the calling thread and in the order
     * runs finish, so a caller can report a group of runs as soon as its last one is done.
     */
    public static <T, R> List<R> run(List<T> items, int parallel, Function<T, R> work, Function<T, String> name,
                                     String threadName, ProgressBar progress, ObjIntConsumer<R> finished) throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(parallel, items.size())), r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
        CompletionService<Integer> done = new ExecutorCompletionService<>(pool);
        List<R> results = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            results.add(null);
        }
        try {
            for (int i = 0; i < items.size(); i++) {
                int k = i;
                done.submit(() -> {
                    try {
                        results.set(k, work.apply(items.get(k)));
                    } catch (ModelException e) {
                        throw new ModelException("run " + name.apply(items.get(k)) + ": " + OneLine.of(e.getMessage()));
                    } catch (NoProgressException e) {
                        throw new NoProgressException("run " + name.apply(items.get(k)) + ": " + OneLine.of(e.getMessage()));
                    }
                    return k;
                });
            }
            for (int i = 0; i < items.size(); i++) {
                Future<Integer> f = done.take();
                try {
                    int k = f.get();
                    finished.accept(results.get(k), k);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException re) {
                        throw re;
                    }
                    throw new IllegalStateException(e.getCause());
                }
                progress.update(i + 1, items.size(), (i + 1) + "/" + items.size() + " runs");
            }
        } finally {
            pool.shutdownNow();
            progress.done();
        }
        return results; // each slot was set by one task, and its completion happens-before take() returned it
    }
}
