package dev.pvtlb.itests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The host's shared libraries that a jlink runtime needs, found with {@code ldd}: what
 * {@code bin/java} and every {@code lib/**.so} of the runtime link against, outside the runtime
 * itself, including the dynamic loader. A scratch image has no libc; these files, copied to the
 * same paths in the image, are all the JVM loads from outside its own folder.
 */
final class SharedLibs {
    /** {@code libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)} or {@code libjvm.so => not found}. */
    private static final Pattern ARROW = Pattern.compile("^\\s*(\\S+) => (.+?)(?: \\(0x[0-9a-f]+\\))?\\s*$");
    /** The loader: {@code /lib64/ld-linux-x86-64.so.2 (0x...)}. */
    private static final Pattern LOADER = Pattern.compile("^\\s*(/\\S+) \\(0x[0-9a-f]+\\)\\s*$");

    private SharedLibs() {
    }

    /** Host library paths (absolute, as ldd resolved them) needed by the runtime at {@code runtime}. */
    static SortedSet<Path> of(Path runtime) {
        List<Path> objects = new ArrayList<>();
        objects.add(runtime.resolve("bin/java"));
        Set<String> inRuntime = new TreeSet<>();
        try (Stream<Path> s = Files.walk(runtime.resolve("lib"))) {
            s.filter(p -> p.getFileName().toString().endsWith(".so") && Files.isRegularFile(p)).forEach(p -> {
                objects.add(p);
                inRuntime.add(p.getFileName().toString());
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        SortedSet<Path> libs = new TreeSet<>();
        for (Path o : objects) {
            libs.addAll(parse(ldd(o), runtime, inRuntime, o));
        }
        return libs;
    }

    /**
     * Parses one ldd listing. Libraries inside the runtime are skipped (jlink put them there);
     * "not found" is accepted only for a library the runtime has (lib/*.so name libjvm.so, which
     * is in lib/server and already loaded by the time they are); anything else unresolved is an
     * error, because the container would fail to start with it.
     */
    static List<Path> parse(String lddOutput, Path runtime, Set<String> inRuntime, Path object) {
        List<Path> found = new ArrayList<>();
        for (String line : lddOutput.lines().toList()) {
            Matcher a = ARROW.matcher(line);
            Matcher l = LOADER.matcher(line);
            if (a.matches()) {
                String name = a.group(1);
                String where = a.group(2);
                if (where.equals("not found")) {
                    if (!inRuntime.contains(name)) {
                        throw new IllegalStateException("ldd " + object + ": " + name + " not found on this host");
                    }
                    continue;
                }
                Path p = Path.of(where).normalize();
                if (!p.startsWith(runtime.normalize())) {
                    found.add(p);
                }
            } else if (l.matches()) {
                found.add(Path.of(l.group(1)).normalize());
            }
            // Else: linux-vdso.so.1 (given by the kernel, no file), or "statically linked".
        }
        return found;
    }

    private static String ldd(Path object) {
        try {
            Process p = new ProcessBuilder("ldd", object.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            if (code != 0) {
                throw new IllegalStateException("ldd " + object + " exited " + code + ": " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run ldd (glibc's, needed to collect the image's libraries)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
