package dev.pvtlb.spark;

import java.util.List;

/** The JVM flags Spark 4 needs on JDK 25: it reaches into these java.base packages reflectively. */
public final class JvmFlags {
    public static final List<String> SPARK = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
            "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
            "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED");

    private JvmFlags() {}
}
