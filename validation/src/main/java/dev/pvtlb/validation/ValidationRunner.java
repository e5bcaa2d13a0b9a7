package dev.pvtlb.validation;

import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.run.RunReport;
import dev.pvtlb.run.Runner;
import dev.pvtlb.run.Scenario;
import dev.pvtlb.study.LocalRuns;
import dev.pvtlb.study.ScenarioArgs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
        List<Integer> order = new ArrayList<>();
        long[] sizes = new long[runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            order.add(i);
            sizes[i] = size(scenarios.get(i));
        }
        // Largest first: the pool ends when its last run does, and a large run started last keeps
        // one thread busy while the others idle. A stable sort keeps table order among equals.
        order.sort(Comparator.comparingLong((Integer i) -> sizes[i]).reversed());
        List<RunReport> done = LocalRuns.run(order, parallel, i -> Runner.run(scenarios.get(i)),
                i -> runs.get(i).key() + " (" + runs.get(i).commandLine() + ")", "pvtlb-validate", progress);
        RunReport[] byRun = new RunReport[runs.size()];
        for (int j = 0; j < order.size(); j++) {
            byRun[order.get(j)] = done.get(j);
        }
        Map<String, RunReport> reports = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            reports.put(runs.get(i).key(), byRun[i]);
        }
        return new RunResults(Collections.unmodifiableMap(reports));
    }

    /**
     * How much a run simulates, for the order runs start in: its vCPUs over all its VMs, times its
     * repetitions (a KVM run of three 64-vCPU VMs is the largest of validate's runs, an arm64
     * run on 4 CPUs among the smallest). An estimate; the figures do not depend on it.
     */
    private static long size(Scenario s) {
        var config = s.guestConfig(0);
        return (long) config.cpus() * config.vms() * s.reps();
    }
}
