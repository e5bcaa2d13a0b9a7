package dev.pvtlb.itests;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Image;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * The image every container test runs: {@code FROM scratch} plus a JVM made by jlink from the
 * JDK running the tests (the toolchain's JDK 25), the host shared libraries that JVM links
 * against ({@link SharedLibs}), cli's shaded jar, and guest's backend-tests jar (for
 * {@link #testBackendsEntrypoint}; the image's own entry point does not use it). Nothing is
 * pulled: there is no registry, and the base is the empty {@code scratch}.
 *
 * <p>Built at most once per test JVM, and tagged {@code pvtlb-itest:HASH} where HASH covers
 * everything the image's behaviour depends on (both jars' entries, the JDK, the module choice and
 * the Dockerfile), so a rerun with unchanged jars reuses the image without running jlink.
 * The host libraries are not in the hash: the image carries its own copies, consistent with
 * each other, so a host upgrade does not make an old image wrong.
 */
final class PvtlbImage {
    static final String REPOSITORY = "pvtlb-itest";
    /** Where the runtime goes in the image; the jar sits beside bin/ and lib/. */
    static final String HOME = "/opt/pvtlb";
    /** guest's backend-tests jar in the image, beside pvtlb.jar. */
    static final String TEST_BACKENDS_JAR = HOME + "/test-backends.jar";
    /** An empty, writable folder in the image for the report; the container's working directory. */
    static final String OUT = "/out";
    /** Bump when the assembly changes in a way the hashed inputs do not show (say, how libraries are found). */
    private static final String RECIPE = "1";
    private static final List<String> JLINK_OPTIONS = List.of("--strip-debug", "--no-header-files", "--no-man-pages");
    /**
     * Modules jdeps reports but pvtlb never reaches. java.desktop comes only from JNA's
     * {@code Native$AWT} (native window handles); leaving it out saves 35 MB and the X11/fontconfig
     * libraries its lib/*.so would pull in. Should pvtlb ever need it, the container fails with
     * a NoClassDefFoundError, which the tests report with the container's output.
     */
    private static final Map<String, String> LEFT_OUT = Map.of("java.desktop", "JNA's Native$AWT only");
    /**
     * Modules jdeps cannot see because they are reached by reflection: Byte Buddy and JNA look up
     * sun.misc.Unsafe (module jdk.unsupported) reflectively.
     */
    private static final List<String> ADDED = List.of("jdk.unsupported");

    private static String tag;

    private PvtlbImage() {
    }

    /** The image's tag, building the image first if no image with this content exists yet. */
    static synchronized String tag() {
        if (tag == null) {
            tag = buildOrReuse();
        }
        return tag;
    }

    private static String buildOrReuse() {
        long t0 = System.nanoTime();
        Path jar = ProjectFiles.jar();
        Path testBackends = ProjectFiles.testBackendsJar();
        Path javaHome = Path.of(System.getProperty("java.home"));
        String dockerfile = dockerfile(LauncherFlags.read(ProjectFiles.launcher()));
        String hash = hash(List.of(jar, testBackends), javaHome, dockerfile);
        String name = REPOSITORY + ":" + hash.substring(0, 16);
        if (exists(name)) {
            log("image " + name + " exists (jar and JDK unchanged): reused");
            return name;
        }
        Path context = ProjectFiles.workDir().resolve("image-" + hash.substring(0, 16));
        deleteTree(context);
        Path rootfs = context.resolve("rootfs");
        Path runtime = rootfs.resolve(HOME.substring(1)).toAbsolutePath().normalize();
        SortedSet<String> modules = modules(jar);
        jlink(modules, runtime);
        long t1 = System.nanoTime();
        SortedSet<Path> libs = SharedLibs.of(runtime);
        for (Path lib : libs) {
            copy(lib, rootfs.resolve(lib.toString().substring(1)));
        }
        copy(jar, runtime.resolve("pvtlb.jar"));
        copy(testBackends, runtime.resolve(TEST_BACKENDS_JAR.substring(HOME.length() + 1)));
        write(context.resolve("Dockerfile"), dockerfile);
        long t2 = System.nanoTime();
        // The Dockerfile goes in as a plain context file, not via withDockerfile(): Testcontainers
        // tries to pull every FROM image named by withDockerfile(), scratch included.
        ImageFromDockerfile image = new ImageFromDockerfile(name, false)
                .withFileFromPath("Dockerfile", context.resolve("Dockerfile"));
        for (Path f : regularFiles(rootfs)) {
            image = image.withFileFromPath(context.relativize(f).toString(), f);
        }
        image.get();
        long t3 = System.nanoTime();
        pruneOlderImages(name);
        log(String.format("image %s built in %.1f s (jdeps+jlink %.1f s, libraries %.1f s, docker build %.1f s);"
                        + " modules %s; host libraries %s", name, (t3 - t0) / 1e9, (t1 - t0) / 1e9, (t2 - t1) / 1e9,
                (t3 - t2) / 1e9, modules, libs));
        return name;
    }

    static String dockerfile(List<String> launcherFlags) {
        List<String> entry = new ArrayList<>();
        entry.add(HOME + "/bin/java");
        entry.addAll(launcherFlags);
        entry.addAll(List.of("-jar", HOME + "/pvtlb.jar"));
        return """
                # Made by dev.pvtlb.itests.PvtlbImage at test time: a jlink JVM, the host libraries it
                # links against, and pvtlb.jar. No shell, no package manager, nothing pulled.
                FROM scratch
                COPY rootfs/ /
                # Empty folders made by WORKDIR (no shell to mkdir): java.io.tmpdir, and the report folder.
                WORKDIR /tmp
                WORKDIR %s
                # The launcher's own final command (see LauncherFlags): pvtlb's arguments follow.
                ENTRYPOINT [%s]
                """.formatted(OUT, entry.stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(", ")));
    }

    /**
     * An entry point that runs pvtlb with guest's backend-tests jar on the class path after
     * pvtlb.jar (the launcher's flags, then {@code -cp} and the main class instead of
     * {@code -jar}): the test sources' backends register through the SPI as a user's would.
     */
    static List<String> testBackendsEntrypoint() {
        List<String> entry = new ArrayList<>();
        entry.add(HOME + "/bin/java");
        entry.addAll(LauncherFlags.read(ProjectFiles.launcher()));
        entry.addAll(List.of("-cp", HOME + "/pvtlb.jar:" + TEST_BACKENDS_JAR, ProjectFiles.MAIN_CLASS));
        return entry;
    }

    /** jdeps' answer for the jar, less {@link #LEFT_OUT}, plus {@link #ADDED}. */
    private static SortedSet<String> modules(Path jar) {
        String out = tool("jdeps", "--multi-release", Integer.toString(Runtime.version().feature()),
                "--ignore-missing-deps", "--print-module-deps", jar.toString()).strip();
        SortedSet<String> modules = new TreeSet<>(Arrays.asList(out.split(",")));
        modules.removeAll(LEFT_OUT.keySet());
        modules.addAll(ADDED);
        return modules;
    }

    private static void jlink(SortedSet<String> modules, Path output) {
        List<String> args = new ArrayList<>(List.of("--add-modules", String.join(",", modules)));
        args.addAll(JLINK_OPTIONS);
        args.addAll(List.of("--output", output.toString()));
        tool("jlink", args.toArray(String[]::new));
    }

    /** Runs a JDK tool in this JVM (the JDK the tests run on, so the runtime matches the toolchain). */
    private static String tool(String name, String... args) {
        ToolProvider tp = ToolProvider.findFirst(name).orElseThrow(() -> new IllegalStateException(
                "no " + name + " in " + System.getProperty("java.home") + ": the tests must run on a full JDK 25"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = tp.run(o, e, args);
        }
        if (code != 0) {
            throw new IllegalStateException(name + " " + String.join(" ", args) + " exited " + code + ":\n"
                    + out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static String hash(List<Path> jars, Path javaHome, String dockerfile) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            // The jars' entries by name and content, not their bytes: each build stamps new zip
            // times, and an unchanged build should find its image again (after mvn clean too).
            for (Path jar : jars) {
                try (JarFile jf = new JarFile(jar.toFile())) {
                    List<JarEntry> entries = jf.stream().sorted(Comparator.comparing(JarEntry::getName)).toList();
                    for (JarEntry e : entries) {
                        md.update(e.getName().getBytes(StandardCharsets.UTF_8));
                        md.update((byte) 0);
                        try (InputStream in = jf.getInputStream(e)) {
                            md.update(in.readAllBytes());
                        }
                    }
                }
                md.update((byte) 1);
            }
            Path release = javaHome.resolve("release");
            String jdk = javaHome + "\n" + System.getProperty("java.runtime.version") + "\n"
                    + (Files.isRegularFile(release) ? Files.readString(release) : "");
            String recipe = String.join("\n", RECIPE, jdk, JLINK_OPTIONS.toString(),
                    new TreeSet<>(LEFT_OUT.keySet()).toString(), ADDED.toString(), dockerfile);
            md.update(recipe.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Removes {@link #REPOSITORY} images other than {@code keep} that are more than a day old, so
     * the engine's disk does not fill with one 70 MB image per jar ever tested. Younger ones are
     * spared: another checkout on this machine may be testing with one right now. An image a
     * container still uses is refused by the engine, and left.
     */
    private static void pruneOlderImages(String keep) {
        DockerClient docker = DockerClientFactory.instance().client();
        long dayAgo = Instant.now().minus(Duration.ofDays(1)).getEpochSecond();
        for (Image i : docker.listImagesCmd().withReferenceFilter(REPOSITORY).exec()) {
            List<String> tags = i.getRepoTags() == null ? List.of() : Arrays.asList(i.getRepoTags());
            if (!tags.contains(keep) && i.getCreated() != null && i.getCreated() < dayAgo) {
                try {
                    docker.removeImageCmd(i.getId()).exec();
                    log("removed old image " + tags);
                } catch (ConflictException | NotFoundException e) {
                    log("kept old image " + tags + ": " + e.getMessage());
                }
            }
        }
    }

    private static boolean exists(String name) {
        try {
            DockerClientFactory.instance().client().inspectImageCmd(name).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    private static List<Path> regularFiles(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            // Files.isRegularFile follows links: jlink's legal/ notices are symlinks, sent as their content.
            return s.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copy(Path from, Path to) {
        try {
            Files.createDirectories(to.getParent());
            // COPY_ATTRIBUTES keeps the mode: the loader must stay executable.
            Files.copy(from, to, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + from + " into the image context", e);
        }
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + dir, e);
        }
    }

    private static void log(String line) {
        System.err.println("[pvtlb-itests] " + line);
    }
}
