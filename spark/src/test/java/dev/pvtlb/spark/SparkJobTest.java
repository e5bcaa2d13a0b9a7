package dev.pvtlb.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pvtlb.study.SparkJob;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** SparkJob is what cli starts without knowing this module: it must name this module's main class and flags. */
class SparkJobTest {
    @Test
    void theMainClassCliStartsIsThisModulesEntryPoint() {
        assertEquals(SparkMain.class.getName(), SparkJob.MAIN_CLASS);
    }

    @Test
    void thePomsCopyOfTheSparkFlagsIsTheOneList() throws IOException {
        // surefire runs in the module's directory; the pom's property feeds its argLine.
        String pom = Files.readString(Path.of("pom.xml"));
        Matcher m = Pattern.compile("<spark\\.jvm\\.flags>([^<]*)</spark\\.jvm\\.flags>").matcher(pom);
        assertTrue(m.find(), "spark/pom.xml defines spark.jvm.flags");
        assertEquals(SparkJob.ADD_OPENS, List.of(m.group(1).strip().split("\\s+")));
    }

    @Test
    void theJobDoesNotDependOnTheCommandLine() throws IOException {
        // cli starts this module's job by name (SparkJob.MAIN_CLASS); a dependency back would be a cycle.
        assertFalse(Files.readString(Path.of("pom.xml")).contains("<artifactId>pvtlb-cli</artifactId>"));
    }

    @Test
    void executorsGetEveryFlag() {
        assertEquals(String.join(" ", SparkJob.JVM_FLAGS), SparkStudyExecutor.defaults().get("spark.executor.extraJavaOptions"));
        assertTrue(SparkJob.JVM_FLAGS.containsAll(SparkJob.ADD_OPENS));
    }
}
