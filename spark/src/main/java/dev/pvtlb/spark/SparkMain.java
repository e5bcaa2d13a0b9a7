package dev.pvtlb.spark;

import dev.pvtlb.cli.Main;
import java.io.PrintWriter;

/**
 * Entry point of the job jar (spark-submit --class dev.pvtlb.spark.SparkMain pvtlb-spark.jar
 * sweep STUDY --master URL ...). It is the pvtlb command itself; with Spark on the class path,
 * 'sweep --master' finds {@link SparkStudyExecutor} and runs the study in this JVM as the driver.
 */
public final class SparkMain {
    private SparkMain() {}

    public static void main(String[] args) {
        int rc = Main.execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        System.exit(rc);
    }
}
