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
import java.util.function.ObjIntConsumer;

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
        return runGroups(List.of(runs), parallel, progress, (group, g) -> { });
    }

    /**
     * Runs every group's runs ({@code parallel} at once), group after group and each group's
     * largest first, and hands {@code groupDone} each group's reports with its index as soon as
     * it and every group before it are done: groups are reported in their order whatever order
     * runs finish in, so what a caller prints from them is the same on any pool. Returns every
     * report by run key.
     */
    static RunResults runGroups(List<List<ValidationRun>> groups, int parallel, ProgressBar progress,
                                ObjIntConsumer<RunResults> groupDone) throws InterruptedException {
        List<Planned> planned = new ArrayList<>();
        int[] left = new int[groups.size()];
        for (int g = 0; g < groups.size(); g++) {
            // Largest first: a group ends when its last run does, and a large run started last keeps
            // one thread busy while the others idle. A stable sort keeps table order among equals.
            List<Planned> group = new ArrayList<>();
            for (ValidationRun r : groups.get(g)) {
                Scenario s = r.build();
                ScenarioArgs.check(s); // a run the model would refuse stops the suite before any work
                group.add(new Planned(r, s, g));
            }
            group.sort(Comparator.comparingLong((Planned p) -> size(p.scenario())).reversed());
            planned.addAll(group);
            left[g] = group.size();
        }
        Map<String, RunReport> reports = new LinkedHashMap<>();
        int[] next = {0};
        Runnable report = () -> {
            while (next[0] < groups.size() && left[next[0]] == 0) {
                Map<String, RunReport> mine = new LinkedHashMap<>();
                for (ValidationRun r : groups.get(next[0])) {
                    mine.put(r.key(), reports.get(r.key()));
                }
                groupDone.accept(new RunResults(Collections.unmodifiableMap(mine)), next[0]++);
            }
        };
        LocalRuns.run(planned, parallel, p -> Runner.run(p.scenario()),
                p -> p.run().key() + " (" + p.run().commandLine() + ")", "pvtlb-validate", progress, (done, i) -> {
                    Planned p = planned.get(i);
                    reports.put(p.run().key(), done);
                    left[p.group()]--;
                    report.run();
                });
        report.run(); // groups with no run of their own after the last that had one
        Map<String, RunReport> byKey = new LinkedHashMap<>();
        for (List<ValidationRun> group : groups) {
            for (ValidationRun r : group) {
                byKey.put(r.key(), reports.get(r.key()));
            }
        }
        return new RunResults(Collections.unmodifiableMap(byKey));
    }

    /** A run of a group, built, in the order runs start in. */
    private record Planned(ValidationRun run, Scenario scenario, int group) {
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
