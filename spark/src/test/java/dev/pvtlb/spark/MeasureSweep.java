package dev.pvtlb.spark;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Not a test: a measurement run by hand (see docs/studies.md), timing one study locally, on
 * local[2] and on a two-worker standalone cluster on loopback, and checking the rows agree.
 * Usage: java [Spark JVM flags] -cp TEST_CLASSPATH dev.pvtlb.spark.MeasureSweep STUDY WORKDIR
 */
public final class MeasureSweep {
    private MeasureSweep() {}

    public static void main(String[] a) throws Exception {
        Path study = Path.of(a[0]);
        Path dir = Files.createDirectories(Path.of(a[1]));
        double local = time("local --parallel 2", "sweep", study.toString(), "--out", dir.resolve("local").toString(),
                "--parallel", "2");
        double local2 = time("spark local[2]", "sweep", study.toString(), "--out", dir.resolve("local2").toString(),
                "--master", "local[2]");
        double cluster;
        long t0 = System.nanoTime();
        try (StandaloneCluster c = new StandaloneCluster(dir.resolve("cluster"), 2)) {
            System.out.printf("cluster start: %.2f s%n", (System.nanoTime() - t0) / 1e9);
            List<String> args = new ArrayList<>(List.of("sweep", study.toString(), "--out", dir.resolve("cl").toString(),
                    "--master", c.url));
            c.executorConf().forEach(kv -> args.addAll(List.of("--spark-conf", kv)));
            cluster = time("standalone 2 workers", args.toArray(String[]::new));
        }
        String l = Files.readString(dir.resolve("local/runs.csv"));
        System.out.println("local[2] rows equal: " + l.equals(Files.readString(dir.resolve("local2/runs.csv"))));
        System.out.println("cluster rows equal: " + l.equals(Files.readString(dir.resolve("cl/runs.csv"))));
        System.out.printf("runs: %d; local %.2f s, local[2] %.2f s, cluster %.2f s%n", l.lines().count() - 1, local, local2,
                cluster);
    }

    private static double time(String what, String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        long t0 = System.nanoTime();
        int rc = SparkMain.execute(args, new PrintWriter(o, true), new PrintWriter(e, true));
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf("%s: exit %d, %.2f s%s%n", what, rc, s, rc == 0 ? "" : " " + e);
        return s;
    }
}
