package samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every sample of docs/samples prints exactly its .out file. The samples are found by listing
 * docs/samples/Sample*.java (a JUnit sample, *Test.java, is run as a test instead), so a new
 * sample without a .out file fails here. To (re)write the .out files after a change, run the
 * samples (see docs/samples/README.md) and read what changed before committing.
 */
class SamplesTest {
    static final Path DIR = Path.of(System.getProperty("basedir", "."), "..", "docs", "samples").normalize();

    @TestFactory
    Stream<DynamicTest> eachSamplePrintsItsOutFile() throws IOException {
        List<String> names;
        try (Stream<Path> files = Files.list(DIR)) {
            names = files.map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("Sample") && n.endsWith(".java") && !n.endsWith("Test.java"))
                    .map(n -> n.substring(0, n.length() - ".java".length()))
                    .sorted()
                    .toList();
        }
        assertTrue(names.size() >= 5, "samples found in " + DIR + ": " + names);
        return names.stream().map(n -> DynamicTest.dynamicTest(n, () -> check(n)));
    }

    private static void check(String name) throws Exception {
        Path out = DIR.resolve(name + ".out");
        assertTrue(Files.isRegularFile(out), "docs/samples/" + name + ".out is missing (what the sample prints)");
        String expected = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(expected, run(name), "docs/samples/" + name + " no longer prints " + out.getFileName());
    }

    /** Runs {@code samples.NAME.main} with System.out captured. */
    static String run(String name) throws Exception {
        Method main = Class.forName("samples." + name).getMethod("main", String[].class);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream old = System.out;
        try (PrintStream capture = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
            System.setOut(capture);
            main.invoke(null, (Object) new String[0]);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        } finally {
            System.setOut(old);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }
}
