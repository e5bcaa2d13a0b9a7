package dev.pvtlb.study;

import java.util.ArrayList;
import java.util.List;

/**
 * What cli needs to know to start the spark module's job in another JVM without depending on
 * it: the main class (cli cannot name it as a type), and the JVM flags a Spark 4 driver or
 * executor needs on JDK 25 (Spark reaches into these java.base packages reflectively). This is
 * the one list of those flags: cli's launch of the job, the job's executor options and the
 * spark module's tests read it from here; the spark module's pom keeps a copy
 * ({@code spark.jvm.flags}, which surefire's argLine needs before any class is compiled), and
 * {@code SparkJobTest} there fails when the two differ or the main class moved.
 */
public final class SparkJob {
    /** The job's entry point in the spark module (also the Main-Class of spark/target/pvtlb-spark.jar). */
    public static final String MAIN_CLASS = "dev.pvtlb.spark.SparkMain";

    /** The {@code --add-opens} flags, in the order spark/pom.xml lists them. */
    public static final List<String> ADD_OPENS = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED");

    /** Every flag of a JVM that runs pvtlb under Spark: the above, and native access for the host probes. */
    public static final List<String> JVM_FLAGS;

    static {
        List<String> all = new ArrayList<>(ADD_OPENS);
        all.add("--enable-native-access=ALL-UNNAMED");
        JVM_FLAGS = List.copyOf(all);
    }

    private SparkJob() {}
}
