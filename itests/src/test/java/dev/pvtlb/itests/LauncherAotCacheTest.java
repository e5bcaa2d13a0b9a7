package dev.pvtlb.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's ahead-of-time cache never runs old code. The JVM loads a cache's classes
 * without checking they came from the jar it runs, so after a rebuild whose training run failed
 * an old cache used to print the old build's text. Here the launcher runs a small jar of its
 * own ({@code PVTLB_JAR}), made twice with a changed class: the second build's training run
 * fails, as in that report, and the launcher must print the second build's text, having
 * deleted the first build's cache and kept none for the second.
 */
class LauncherAotCacheTest {
    private static final String MAIN = "hello.Hello";

    /** A main class printing {@code message}; its training run (pvtlb's is "run ...") exits {@code trainingExit}. */
    private static String source(String message, int trainingExit) {
        return """
                package hello;

                public class Hello {
                    public static void main(String[] args) {
                        if (args.length > 0 && args[0].equals("run")) {
                            System.exit(%d);
                        }
                        System.out.println("%s");
                    }
                }
                """.formatted(trainingExit, message);
    }

    @Test
    void aRebuiltJarWhoseTrainingFailsRunsItsOwnClasses(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("app/pvtlb.jar");
        Files.createDirectories(jar.getParent());

        buildJar(dir.resolve("v1"), source("built first", 0), jar);
        String hash1 = sha256Prefix(jar);
        assertEquals("built first\n", launch(jar, dir));
        Path cache1 = jar.resolveSibling("pvtlb-" + hash1 + ".aot");
        assertEquals(List.of(cache1.getFileName().toString()), files(jar.getParent(), ".aot"),
                "the training run made a cache named after the jar's content");
        FileTime made = Files.getLastModifiedTime(cache1);

        // Unchanged jar: the same cache is used again, not remade.
        assertEquals("built first\n", launch(jar, dir));
        assertEquals(made, Files.getLastModifiedTime(cache1));

        // A cache under the name the launcher used before, made from the first jar, as an old
        // checkout leaves it: it must not be used with the new jar either.
        Files.copy(cache1, jar.resolveSibling("pvtlb.aot"));
        buildJar(dir.resolve("v2"), source("built again", 1), jar);
        String hash2 = sha256Prefix(jar);
        assertTrue(!hash1.equals(hash2), "the rebuild changed the jar");
        assertEquals("built again\n", launch(jar, dir));
        assertEquals(List.of(), files(jar.getParent(), ".aot"), "the first jar's caches are gone and the failed"
                + " training run left none for the second");
        assertEquals(List.of("pvtlb.jar"), files(jar.getParent(), ""), "no temporary files are left");
    }

    /** Runs {@code ./pvtlb} with {@code PVTLB_JAR=jar} and this JVM's JDK; returns stdout, asserting exit 0. */
    private static String launch(Path jar, Path dir) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", ProjectFiles.launcher().toString());
        pb.environment().put("PVTLB_JAR", jar.toString());
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.redirectErrorStream(false);
        Path err = dir.resolve("stderr.txt");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        int code = p.waitFor();
        assertEquals(0, code, () -> "launcher exit " + code + ", stdout: " + out + ", stderr: " + read(err));
        return out;
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** Compiles {@code source} in {@code work} and writes a runnable jar of it to {@code jar}. */
    private static void buildJar(Path work, String source, Path jar) throws IOException {
        Path src = work.resolve("src/hello/Hello.java");
        Path classes = work.resolve("classes");
        Files.createDirectories(src.getParent());
        Files.createDirectories(classes);
        Files.writeString(src, source);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", classes.toString(), src.toString());
        assertEquals(0, rc, "javac on the test's class");
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MAIN_CLASS, MAIN);
        Path tmp = jar.resolveSibling("building.tmp");
        try (OutputStream os = Files.newOutputStream(tmp); JarOutputStream jos = new JarOutputStream(os, mf)) {
            jos.putNextEntry(new JarEntry("hello/Hello.class"));
            jos.write(Files.readAllBytes(classes.resolve("hello/Hello.class")));
            jos.closeEntry();
        }
        Files.move(tmp, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static String sha256Prefix(Path f) throws IOException, NoSuchAlgorithmException {
        byte[] d = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f));
        return HexFormat.of().formatHex(d).substring(0, 16);
    }

    /** Names of the files in {@code dir} ending with {@code suffix}, sorted. */
    private static List<String> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().toList();
        }
    }
}
