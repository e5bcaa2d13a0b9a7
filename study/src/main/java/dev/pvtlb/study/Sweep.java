package dev.pvtlb.study;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.report.Csv;
import dev.pvtlb.report.ProgressBar;
import dev.pvtlb.report.ReportFile;
import dev.pvtlb.model.InputFile;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Runs a study and writes what it found: for a grid, runs.csv, runs.jsonl, summary.html and the
 * summary table on {@code out}; for a campaign, campaign.csv, a trace per hazard and a line per
 * variant. The runs go to a {@link ClusterExecutor} when one is given, else to a pool of threads
 * here. Each run boots its own guests and the model is single threaded per guest, so runs are
 * independent; results are put back in grid order, so the files do not depend on which run
 * finished first or where it ran. Both {@code pvtlb sweep} and the Spark job go through here.
 */
public final class Sweep {
    private final Study study;
    private final Path dir;
    private final PrintWriter out;
    private final PrintWriter err;
    private final int parallel;

    /** {@code parallel}: runs at once on the local pool (ignored by a cluster). */
    public Sweep(Study study, Path dir, PrintWriter out, PrintWriter err, int parallel) {
        if (parallel < 1 || parallel > 1024) {
            throw new ModelException("--parallel must be between 1 and 1024, got " + parallel);
        }
        this.study = study;
        this.dir = dir;
        this.out = out;
        this.err = err;
        this.parallel = parallel;
    }

    /**
     * Checks that {@code dir} can be the output directory before anything runs. An empty file in
     * the way, typically made by the shell for a redirect of this very command ({@code pvtlb sweep S
     * --out X > X}), holds nothing, so it is removed to become the directory (our stdout, if it was
     * that file, keeps writing to the unlinked file). The directory's parent must exist: a missing
     * one is more likely a typo than a wish for a tree of new directories.
     */
    public static void prepareOutputDirectory(Path dir) throws IOException {
        if (Files.isRegularFile(dir) && Files.size(dir) == 0) {
            Files.delete(dir);
        }
        ReportFile.checkDirectoryToMake(dir, "--out");
    }

    /**
     * Runs the study (on {@code cluster} at {@code master} when not null) and returns the exit
     * code: 0; for a campaign, 1 when some variant has a hazard.
     */
    public int run(ClusterExecutor cluster, String master, Map<String, String> conf) throws IOException, InterruptedException {
        prepareOutputDirectory(dir);
        try {
            Files.createDirectories(dir);
        } catch (IOException | SecurityException e) {
            throw new ModelException("--out " + dir + ": cannot create the directory: " + InputFile.reason(e));
        }
        return study.isCampaign() ? campaign(cluster, master, conf) : grid(cluster, master, conf);
    }

    private int grid(ClusterExecutor cluster, String master, Map<String, String> conf)
            throws IOException, InterruptedException {
        List<StudyRun> runs = study.runs();
        List<? extends Map<String, Object>> rows;
        if (cluster != null) {
            rows = cluster.sweep(study, runs, dir, master, conf);
        } else {
            rows = runLocally(runs, r -> RunRows.run(study, r), r -> r.index() + " " + r.point() + " seed " + r.seed());
        }
        StudyOutput output = new StudyOutput(study, rows);
        output.writeFiles(dir);
        out.print(output.table());
        out.println(rows.size() + " runs: " + dir.resolve("runs.csv") + ", runs.jsonl, summary.html");
        return 0;
    }

    private int campaign(ClusterExecutor cluster, String master, Map<String, String> conf)
            throws IOException, InterruptedException {
        Campaign c = study.campaign();
        List<Campaign.Outcome> outcomes;
        if (cluster != null) {
            outcomes = cluster.campaign(study, dir, master, conf);
        } else {
            Function<List<Campaign.Task>, List<Campaign.TaskResult>> wave = tasks -> {
                try {
                    return runLocally(tasks, c::run, t -> "variant " + t.variant() + " slice " + t.slice());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ModelException("interrupted");
                }
            };
            outcomes = c.execute(wave);
        }
        return report(outcomes);
    }

    /** Writes campaign.csv and a trace file per hazard; prints one line per variant. */
    private int report(List<Campaign.Outcome> outcomes) throws IOException {
        Campaign c = study.campaign();
        StringBuilder csv = new StringBuilder("variant,settings,schedules,verdict,found_at,trace\n");
        boolean any = false;
        out.printf("campaign %s  scenario %s  backend %s  strategy %s  budget %d  seed %d%n", study.file(), c.scenario(),
                c.backend(), c.strategy(), c.budget(), c.seed());
        for (Campaign.Outcome v : outcomes) {
            List<String> kv = new ArrayList<>();
            v.settings().forEach((k, x) -> kv.add(k + "=" + x));
            String settings = String.join(" ", kv);
            String trace = "";
            if (v.found()) {
                any = true;
                trace = "trace-" + v.variant() + ".txt";
                Files.writeString(dir.resolve(trace), v.trace(), StandardCharsets.UTF_8);
            }
            String verdict = v.found() ? v.hazard().split(" ", 2)[0] : "SAFE";
            csv.append(v.variant()).append(',').append(Csv.cell(settings)).append(',').append(v.schedules()).append(',')
                    .append(verdict).append(',').append(v.found() ? v.foundAt() : "").append(',').append(trace).append('\n');
            out.printf("variant %d [%s]: %s%n", v.variant(), settings, v.found()
                    ? "HAZARD in schedule " + v.foundAt() + " (" + v.schedules() + " schedules run): " + v.hazard()
                    + "; trace " + dir.resolve(trace) + " (pvtlb replay)"
                    : "SAFE in " + v.schedules() + " schedules");
        }
        Files.writeString(dir.resolve("campaign.csv"), csv.toString(), StandardCharsets.UTF_8);
        return any ? 1 : 0;
    }

    /** The items on a pool of {@code parallel} local threads, results in the items' order. */
    private <T, R> List<R> runLocally(List<T> items, Function<T, R> work, Function<T, String> name)
            throws InterruptedException {
        return LocalRuns.run(items, parallel, work, name, "pvtlb-sweep", new ProgressBar(err, false));
    }
}
