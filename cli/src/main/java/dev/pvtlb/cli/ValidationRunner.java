package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.model.NoProgressException;
import dev.pvtlb.report.OneLine;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs the distinct runs of some experiments on a pool of threads, as the study module's sweep
 * does: each run boots its own guests and a guest is single threaded, so runs are independent
 * and give the same report on any thread; results are keyed by run, so nothing depends on
 * which run finished first.
 */
final class ValidationRunner {
    private ValidationRunner() {}

    /** The runs the experiments need, each once (smt-dedup and smt-dedup-absolute share theirs), in table order. */
    static List<ValidationRun> runsOf(List<ValidationExperiment> experiments) {
        Map<String, ValidationRun> runs = new LinkedHashMap<>();
        for (ValidationExperiment e : experiments) {
            for (ValidationRun r : e.runs()) {
                runs.putIfAbsent(r.key(), r);
            }
        }
        return List.copyOf(runs.values());
    }

    /** Runs every run ({@code parallel} at once) and returns the reports by run key. */
    static RunResults run(List<ValidationRun> runs, int parallel, ProgressBar progress) throws InterruptedException {
        List<Scenario> scenarios = new ArrayList<>();
        for (ValidationRun r : runs) {
            Scenario s = r.build();
            ScenarioArgs.check(s); // a run the model would refuse stops the suite before any work
            scenarios.add(s);
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(parallel, runs.size())), r -> {
            Thread t = new Thread(r, "pvtlb-validate");
            t.setDaemon(true); // a failed suite must not keep the JVM alive
            return t;
        });
        CompletionService<RunReport> done = new ExecutorCompletionService<>(pool);
        List<Future<RunReport>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < runs.size(); i++) {
                ValidationRun run = runs.get(i);
                Scenario s = scenarios.get(i);
                futures.add(done.submit(() -> {
                    try {
                        return Runner.run(s);
                    } catch (ModelException e) {
                        throw new ModelException("run " + run.key() + " (" + run.commandLine() + "): " + OneLine.of(e.getMessage()));
                    } catch (NoProgressException e) {
                        throw new NoProgressException("run " + run.key() + ": " + OneLine.of(e.getMessage()));
                    }
                }));
            }
            for (int i = 0; i < runs.size(); i++) {
                result(done.take()); // the first failure stops the suite, whichever run it was
                progress.update(i + 1, runs.size(), (i + 1) + "/" + runs.size() + " runs");
            }
        } finally {
            pool.shutdownNow();
            progress.done();
        }
        Map<String, RunReport> reports = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            reports.put(runs.get(i).key(), result(futures.get(i)));
        }
        return new RunResults(Collections.unmodifiableMap(reports));
    }

    private static RunReport result(Future<RunReport> f) throws InterruptedException {
        try {
            return f.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
