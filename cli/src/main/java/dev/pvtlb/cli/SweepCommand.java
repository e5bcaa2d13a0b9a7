package dev.pvtlb.cli;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.study.ClusterExecutor;
import dev.pvtlb.study.SparkJob;
import dev.pvtlb.study.Study;
import dev.pvtlb.study.Sweep;
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
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code pvtlb sweep STUDY}: runs every run of a study file, here on a thread pool or on Spark
 * ({@code --master}), through the study module's {@link Sweep}, which writes one row per run in
 * grid order. Exit 0; for an explore campaign, 1 when some variant has a hazard (its trace
 * written for pvtlb replay); 2 for a bad study file or option.
 */
@Command(name = "sweep", description = "Run a study file (a grid of runs, or an explore campaign) on local threads "
        + "(--parallel N, the same output for any N) or on Spark (--master).")
final class SweepCommand implements java.util.concurrent.Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "STUDY", description = "a study file (YAML, see docs/studies.md)")
    Path file;

    @Option(names = "--out", paramLabel = "DIR", description = "where to write runs.csv, runs.jsonl, summary.html "
            + "(default: STUDY's name without extension, + '-out')")
    Path out;

    @Option(names = "--parallel", paramLabel = "N", description = "local runs at once (default: the number of cores); "
            + "each run is deterministic and the results are gathered in grid order, so the output is the same for any N")
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
        int threads = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
        if (maxRuns != null && maxRuns < 1) {
            throw new ModelException("--max-runs must be >= 1, got " + maxRuns);
        }
        Study study = Study.load(file, maxRuns);
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
        Sweep sweep = new Sweep(study, dir, spec.commandLine().getOut(), spec.commandLine().getErr(), threads);
        Sweep.prepareOutputDirectory(dir);
        ClusterExecutor cluster = null;
        if (master != null) {
            cluster = ServiceLoader.load(ClusterExecutor.class).findFirst().orElse(null);
            if (cluster == null) {
                return launchSpark(dir);
            }
        }
        return sweep.run(cluster, master, conf);
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
            cmd.addAll(List.of(submit.toString(), "--master", master, "--class", SparkJob.MAIN_CLASS));
            cmd.add("--driver-java-options");
            cmd.add(String.join(" ", SparkJob.JVM_FLAGS));
            cmd.add(jobJar.toString());
        } else {
            Path cpFile = jobJar.resolveSibling("spark-classpath.txt");
            if (!Files.isRegularFile(cpFile)) {
                throw new ModelException("--master needs spark-submit (on PATH or in $SPARK_HOME/bin) or the class path "
                        + "file " + cpFile + " that 'mvn -B package -pl spark -am' writes");
            }
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(SparkJob.JVM_FLAGS);
            cmd.add("-cp");
            cmd.add(jobJar + java.io.File.pathSeparator + Files.readString(cpFile).strip());
            cmd.add(SparkJob.MAIN_CLASS);
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
