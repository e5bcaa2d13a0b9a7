package dev.pvtlb.itests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

/**
 * Where the tests find what the rest of the build made. Failsafe passes {@code pvtlb.root}
 * (the project root); a test started elsewhere (an IDE) finds the root by walking up from the
 * working directory to the folder that holds the {@code pvtlb} launcher and {@code cli/}.
 */
final class ProjectFiles {
    static final String MAIN_CLASS = "dev.pvtlb.cli.Main";

    private ProjectFiles() {
    }

    static Path root() {
        String prop = System.getProperty("pvtlb.root");
        if (prop != null) {
            return Path.of(prop).toAbsolutePath().normalize();
        }
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("pvtlb")) && Files.isRegularFile(p.resolve("cli/pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the pvtlb project root above " + Path.of("").toAbsolutePath()
                + "; run the tests with `mvn -B verify` from the root, or pass -Dpvtlb.root=DIR");
    }

    /** The launcher script, whose JVM flags the image's entry point repeats. */
    static Path launcher() {
        return root().resolve("pvtlb");
    }

    /**
     * cli's shaded jar. The reactor builds it before itests (itests depends on pvtlb-cli), but the
     * jar is not an attached artifact, so it is found by path and checked to be the runnable one.
     */
    static Path jar() {
        Path jar = root().resolve("cli/target/pvtlb.jar");
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no " + jar + ": build it first (`mvn -B verify` builds cli before"
                    + " itests; alone: `mvn -B package -pl cli -am -DskipTests`)");
        }
        try (JarFile jf = new JarFile(jar.toFile())) {
            String main = jf.getManifest() == null ? null : jf.getManifest().getMainAttributes().getValue(Attributes.Name.MAIN_CLASS);
            if (!MAIN_CLASS.equals(main)) {
                throw new IllegalStateException(jar + " has Main-Class " + main + ", expected " + MAIN_CLASS
                        + ": is it the shaded jar?");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jar, e);
        }
        return jar;
    }

    /**
     * guest's backend-tests jar: the pv_ops backends of guest's test sources (broken-native,
     * counting) with their services file, which a JVM finds when the jar is on its class path
     * beside pvtlb.jar, as it would find a user's backend. The reactor builds guest before itests.
     */
    static Path testBackendsJar() {
        Path dir = root().resolve("guest/target");
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            List<Path> jars = s.filter(p -> p.getFileName().toString().matches("pvtlb-guest-.*-backend-tests\\.jar")).sorted().toList();
            if (jars.size() != 1) {
                throw new IllegalStateException("expected one pvtlb-guest-*-backend-tests.jar in " + dir + ", found " + jars
                        + ": build guest first (`mvn -B verify` does; alone: `mvn -B package -pl guest -DskipTests`)");
            }
            return jars.getFirst();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": build guest first", e);
        }
    }

    /** A folder for build contexts: under target/ when run by Maven, else the temp folder. */
    static Path workDir() {
        String prop = System.getProperty("pvtlb.itests.workDir");
        return prop != null ? Path.of(prop) : Path.of(System.getProperty("java.io.tmpdir"), "pvtlb-itests");
    }
}
