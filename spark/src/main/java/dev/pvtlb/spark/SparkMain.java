package dev.pvtlb.spark;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.report.OneLine;
import dev.pvtlb.study.Study;
import dev.pvtlb.study.Sweep;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the job jar: {@code spark-submit --class dev.pvtlb.spark.SparkMain pvtlb-spark.jar
 * sweep STUDY --out DIR [--master URL] [--spark-conf KEY=VALUE]... [--max-runs N] [--parallel N]},
 * the arguments {@code pvtlb sweep --master} passes on. It runs the study module's {@link Sweep}
 * with this JVM as the Spark driver ({@link SparkStudyExecutor}), or on local threads without
 * {@code --master}, so the job needs nothing from the cli module. Exit codes as pvtlb's: 0, 1 when
 * a campaign found a hazard, 2 for bad input (one line on stderr).
 */
public final class SparkMain {
    private SparkMain() {}

    public static void main(String[] args) {
        int rc = execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        System.exit(rc);
    }

    /** Runs the job and returns its exit code (for tests). */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        try {
            return sweep(List.of(args), out, err);
        } catch (ModelException | IllegalArgumentException e) {
            err.println("pvtlb: " + OneLine.of(e.getMessage()));
            return 2;
        } catch (IOException | UncheckedIOException e) {
            err.println("pvtlb: I/O error: " + OneLine.of(e.getMessage()));
            return 2;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("pvtlb: interrupted");
            return 2;
        }
    }

    private static int sweep(List<String> args, PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
        if (args.size() < 2 || !args.get(0).equals("sweep")) {
            throw new ModelException("usage: sweep STUDY --out DIR [--master URL] [--spark-conf KEY=VALUE]... "
                    + "[--max-runs N] [--parallel N]");
        }
        Path file = path(args.get(1), "STUDY");
        Path dir = null;
        String master = null;
        Integer maxRuns = null;
        int parallel = Runtime.getRuntime().availableProcessors();
        Map<String, String> conf = new LinkedHashMap<>();
        for (int i = 2; i < args.size(); i += 2) {
            String option = args.get(i);
            if (i + 1 >= args.size()) {
                throw new ModelException(option + " needs a value");
            }
            String value = args.get(i + 1);
            switch (option) {
                case "--out" -> dir = path(value, "--out");
                case "--master" -> master = value;
                case "--max-runs" -> maxRuns = integer(option, value);
                case "--parallel" -> parallel = integer(option, value);
                case "--spark-conf" -> {
                    int eq = value.indexOf('=');
                    if (eq <= 0) {
                        throw new ModelException("--spark-conf expects KEY=VALUE, got '" + value + "'");
                    }
                    conf.put(value.substring(0, eq), value.substring(eq + 1));
                }
                default -> throw new ModelException("unknown option '" + option + "'");
            }
        }
        if (dir == null) {
            throw new ModelException("--out DIR is missing");
        }
        if (maxRuns != null && maxRuns < 1) {
            throw new ModelException("--max-runs must be >= 1, got " + maxRuns);
        }
        Study study = Study.load(file, maxRuns);
        Sweep sweep = new Sweep(study, dir, out, err, parallel);
        return sweep.run(master == null ? null : new SparkStudyExecutor(), master, conf);
    }

    private static Path path(String s, String what) {
        try {
            return Path.of(s);
        } catch (InvalidPathException e) {
            throw new ModelException(what + ": not a file name: " + e.getReason());
        }
    }

    private static int integer(String option, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new ModelException(option + " expects an integer, got '" + value + "'");
        }
    }
}
