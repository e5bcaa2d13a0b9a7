package dev.pvtlb.cli;

import dev.pvtlb.ModelException;
import dev.pvtlb.NoProgressException;
import dev.pvtlb.study.Campaign;
import dev.pvtlb.study.ClusterExecutor;
import dev.pvtlb.study.RunRows;
import dev.pvtlb.study.Study;
import dev.pvtlb.study.StudyOutput;
import dev.pvtlb.study.StudyRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CompletionService;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code pvtlb sweep STUDY}: runs every run of a study file, here on a thread pool or on Spark
 * ({@code --master}), and writes one row per run. Each run boots its own guests and the model is
 * single threaded per guest, so runs are independent; rows are put back in grid order, so the
 * files do not depend on which run finished first or where it ran. Exit 0; for an explore
 * campaign, 1 when some variant has a hazard (its trace written for pvtlb replay).
 */
@Command(name = "sweep", description = "Run a study file (a grid of runs, or an explore campaign) locally or on Spark.")
final class SweepCommand implements java.util.concurrent.Callable<Integer> {
    /** The JVM flags Spark needs on JDK 25 (it reaches into these packages reflectively). */
    static final List<String> SPARK_JVM_FLAGS = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED");

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "STUDY", description = "a study file (YAML, see docs/studies.md)")
    Path file;

    @Option(names = "--out", paramLabel = "DIR", description = "where to write runs.csv, runs.jsonl, summary.html "
            + "(default: STUDY's name without extension, + '-out')")
    Path out;

    @Option(names = "--parallel", paramLabel = "N", description = "local runs at once (default: the number of cores)")
    Integer parallel;

    @Option(names = "--master", paramLabel = "URL", description = "run on Spark: local[N] or spark://HOST:PORT")
    String master;

    @Option(names = "--spark-conf", paramLabel = "KEY=VALUE", description = "a Spark setting for --master (repeatable)")
    List<String> sparkConf = new ArrayList<>();

    @Option(names = "--max-runs", paramLabel = "N", description = "refuse a grid of more runs (default: the file's "
            + "maxRuns, or " + Study.DEFAULT_MAX_RUNS + ")")
    Integer maxRuns;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (parallel != null && (parallel < 1 || parallel > 1024)) {
            throw new ModelException("--parallel must be between 1 and 1024, got " + parallel);
        }
        if (maxRuns != null && maxRuns < 1) {
            throw new ModelException("--max-runs must be >= 1, got " + maxRuns);
        }
        if (!Files.isRegularFile(file)) {
            throw new ModelException("study file not found: " + file);
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.nio.charset.MalformedInputException e) {
            throw new ModelException(file + ": not a study file (not UTF-8 text)");
        }
        Study study = Study.parse(file.getFileName().toString(), text, maxRuns);
        Map<String, String> conf = new LinkedHashMap<>();
        for (String kv : sparkConf) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new ModelException("--spark-conf expects KEY=VALUE, got '" + kv + "'");
            }
            conf.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        if (master != null && master.isBlank()) {
            throw new ModelException("--master must be local[N] or spark://HOST:PORT");
        }
        Path dir = out != null ? out : Path.of(file.getFileName().toString().replaceFirst("\\.[^.]*$", "") + "-out");
        if (Files.isRegularFile(dir) && Files.size(dir) == 0) {
            // An empty file in the way, typically made by the shell for a redirect of this very
            // command (pvtlb sweep S --out X > X): it holds nothing, so it becomes the directory.
            // Our stdout, if it was that file, keeps writing to the unlinked file.
            Files.delete(dir);
        } else if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new ModelException("--out " + dir + " is a file, not a directory");
        }
        ClusterExecutor cluster = null;
        if (master != null) {
            cluster = ServiceLoader.load(ClusterExecutor.class).findFirst().orElse(null);
            if (cluster == null) {
                return launchSpark(dir);
            }
        }
        Files.createDirectories(dir);
        return study.isCampaign() ? campaign(study, dir, cluster, conf) : grid(study, dir, cluster, conf);
    }

    private int grid(Study study, Path dir, ClusterExecutor cluster, Map<String, String> conf)
            throws IOException, InterruptedException {
        List<StudyRun> runs = study.runs();
        PrintWriter o = spec.commandLine().getOut();
        List<? extends Map<String, Object>> rows;
        if (cluster != null) {
            rows = cluster.sweep(study, runs, dir, master, conf);
        } else {
            rows = runLocally(runs, r -> RunRows.run(study, r), r -> r.index() + " " + r.point() + " seed " + r.seed());
        }
        StudyOutput output = new StudyOutput(study, rows);
        output.writeFiles(dir);
        o.print(output.table());
        o.println(rows.size() + " runs: " + dir.resolve("runs.csv") + ", runs.jsonl, summary.html");
        return 0;
    }

    private int campaign(Study study, Path dir, ClusterExecutor cluster, Map<String, String> conf)
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
        return report(study, dir, outcomes, spec.commandLine().getOut());
    }

    /** Writes campaign.csv and a trace file per hazard; prints one line per variant. */
    static int report(Study study, Path dir, List<Campaign.Outcome> outcomes, PrintWriter o) throws IOException {
        Campaign c = study.campaign();
        StringBuilder csv = new StringBuilder("variant,settings,schedules,verdict,found_at,trace\n");
        boolean any = false;
        o.printf("campaign %s  scenario %s  backend %s  strategy %s  budget %d  seed %d%n", study.file(), c.scenario(),
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
            csv.append(v.variant()).append(',').append(RunRows.csvLine(List.of("s"), Map.of("s", settings))).append(',')
                    .append(v.schedules()).append(',').append(verdict).append(',').append(v.found() ? v.foundAt() : "")
                    .append(',').append(trace).append('\n');
            o.printf("variant %d [%s]: %s%n", v.variant(), settings, v.found()
                    ? "HAZARD in schedule " + v.foundAt() + " (" + v.schedules() + " schedules run): " + v.hazard()
                    + "; trace " + dir.resolve(trace) + " (pvtlb replay)"
                    : "SAFE in " + v.schedules() + " schedules");
        }
        Files.writeString(dir.resolve("campaign.csv"), csv.toString(), StandardCharsets.UTF_8);
        return any ? 1 : 0;
    }

    /**
     * Runs the items on a pool of --parallel threads and returns their results in the items'
     * order. A run that fails on bad input fails the sweep with the run named.
     */
    private <T, R> List<R> runLocally(List<T> items, Function<T, R> work, Function<T, String> name)
            throws InterruptedException {
        int n = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(n, items.size())), r -> {
            Thread t = new Thread(r, "pvtlb-sweep");
            t.setDaemon(true); // a failed sweep must not keep the JVM alive
            return t;
        });
        CompletionService<Integer> done = new ExecutorCompletionService<>(pool);
        List<R> results = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            results.add(null);
        }
        Progress progress = new Progress(spec.commandLine().getErr(), items.size());
        try {
            for (int i = 0; i < items.size(); i++) {
                int k = i;
                done.submit(() -> {
                    try {
                        results.set(k, work.apply(items.get(k)));
                    } catch (ModelException e) {
                        throw new ModelException("run " + name.apply(items.get(k)) + ": " + Main.oneLine(e.getMessage()));
                    } catch (NoProgressException e) {
                        throw new NoProgressException("run " + name.apply(items.get(k)) + ": " + Main.oneLine(e.getMessage()));
                    }
                    return k;
                });
            }
            for (int i = 0; i < items.size(); i++) {
                Future<Integer> f = done.take();
                try {
                    f.get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof RuntimeException re) {
                        throw re;
                    }
                    throw new IllegalStateException(e.getCause());
                }
                progress.step();
            }
        } finally {
            pool.shutdownNow();
            progress.end();
        }
        return results; // each slot was set by one task, and its completion happens-before take() returned it
    }

    /** A one-line progress bar on stderr, only when stderr is a terminal (never in files or tests). */
    private static final class Progress {
        private final PrintWriter err;
        private final int total;
        private final boolean on;
        private int done;

        Progress(PrintWriter err, int total) {
            this.err = err;
            this.total = total;
            java.io.Console c = System.console();
            this.on = c != null && c.isTerminal();
        }

        void step() {
            done++;
            if (on) {
                int w = 30;
                int f = (int) ((long) done * w / total);
                err.print("\r[" + "#".repeat(f) + " ".repeat(w - f) + "] " + done + "/" + total);
                err.flush();
            }
        }

        void end() {
            if (on && done > 0) {
                err.println();
            }
        }
    }

    /**
     * Spark is not on this JVM's class path (the pvtlb jar does not carry it): run the spark
     * module's job in another JVM, with spark-submit when there is one, or else with java and
     * the Spark class path the spark module's build wrote next to its job jar.
     */
    private int launchSpark(Path dir) throws IOException, InterruptedException {
        Path root = projectRoot();
        String env = System.getenv("PVTLB_SPARK_JAR");
        Path jobJar = env != null ? Path.of(env) : root == null ? null : root.resolve("spark/target/pvtlb-spark.jar");
        if (jobJar == null || !Files.isRegularFile(jobJar)) {
            throw new ModelException("--master needs the Spark job jar (spark/target/pvtlb-spark.jar): build it with "
                    + "'mvn -B package -pl spark -am -DskipTests', or set PVTLB_SPARK_JAR");
        }
        List<String> args = new ArrayList<>(List.of("sweep", file.toAbsolutePath().toString(), "--out",
                dir.toAbsolutePath().toString(), "--master", master));
        sparkConf.forEach(c -> args.addAll(List.of("--spark-conf", c)));
        if (maxRuns != null) {
            args.addAll(List.of("--max-runs", maxRuns.toString()));
        }
        List<String> cmd = new ArrayList<>();
        Path submit = sparkSubmit();
        if (submit != null) {
            cmd.addAll(List.of(submit.toString(), "--master", master, "--class", "dev.pvtlb.spark.SparkMain"));
            cmd.add("--driver-java-options");
            cmd.add(String.join(" ", SPARK_JVM_FLAGS));
            cmd.add(jobJar.toString());
        } else {
            Path cpFile = jobJar.resolveSibling("spark-classpath.txt");
            if (!Files.isRegularFile(cpFile)) {
                throw new ModelException("--master needs spark-submit (on PATH or in $SPARK_HOME/bin) or the class path "
                        + "file " + cpFile + " that 'mvn -B package -pl spark -am' writes");
            }
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(SPARK_JVM_FLAGS);
            cmd.add("-cp");
            cmd.add(jobJar + java.io.File.pathSeparator + Files.readString(cpFile).strip());
            cmd.add("dev.pvtlb.spark.SparkMain");
        }
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).start();
        p.getOutputStream().close();
        Thread t1 = pump(p.getInputStream(), spec.commandLine().getOut());
        Thread t2 = pump(p.getErrorStream(), spec.commandLine().getErr());
        int rc = p.waitFor();
        t1.join();
        t2.join();
        return rc;
    }

    private static Thread pump(InputStream in, PrintWriter to) {
        Thread t = new Thread(() -> {
            try (var r = new java.io.BufferedReader(new java.io.InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String l = r.readLine(); l != null; l = r.readLine()) {
                    synchronized (to) {
                        to.println(l);
                        to.flush();
                    }
                }
            } catch (IOException e) {
                // the child ended; whatever it printed so far was copied
            }
        }, "pvtlb-spark-output");
        t.start();
        return t;
    }

    private static Path sparkSubmit() {
        String home = System.getenv("SPARK_HOME");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "spark-submit"))) {
            return Path.of(home, "bin", "spark-submit");
        }
        String path = System.getenv("PATH");
        if (path != null) {
            for (String d : path.split(java.io.File.pathSeparator)) {
                if (!d.isEmpty() && Files.isExecutable(Path.of(d, "spark-submit"))) {
                    return Path.of(d, "spark-submit");
                }
            }
        }
        return null;
    }

    /** The checkout the running pvtlb jar (cli/target/pvtlb.jar) or classes directory was built in. */
    private static Path projectRoot() {
        try {
            Path p = Path.of(SweepCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            for (Path d = p; d != null; d = d.getParent()) {
                if (Files.isRegularFile(d.resolve("pom.xml")) && Files.isDirectory(d.resolve("spark"))) {
                    return d;
                }
            }
        } catch (java.net.URISyntaxException | SecurityException | NullPointerException e) {
            return null;
        }
        return null;
    }
}
