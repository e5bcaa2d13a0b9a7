package dev.pvtlb.itests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM flags of the {@code ./pvtlb} launcher, read from its last line
 * ({@code exec "$java" FLAGS -jar "$jar" "$@"}).
 *
 * <p>The image cannot run the launcher itself: it is a bash script that looks for a JDK under
 * /usr/lib/jvm and rebuilds the jar with Maven when sources changed, and the scratch image has
 * no bash, no JDK search path and no Maven, nor should it. What the launcher finally does is
 * one {@code exec java FLAGS -jar pvtlb.jar}, and the image's entry point is that command. Reading
 * the flags from the script keeps the two from drifting apart: a flag added to the launcher
 * reaches the containers on the next run. An array expansion such as {@code "${aot_opts[@]}"}
 * holds flags that only make sense on the machine that ran the launcher (the ahead-of-time
 * cache made there for this jar) and is left out.
 */
final class LauncherFlags {
    private static final Pattern EXEC = Pattern.compile("^\\s*exec \"\\$java\" (.*?)\\s*-jar \"\\$jar\" \"\\$@\"\\s*$");

    private LauncherFlags() {
    }

    static List<String> read(Path launcher) {
        try {
            return parse(Files.readString(launcher));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the launcher " + launcher, e);
        }
    }

    static List<String> parse(String script) {
        List<String> execs = script.lines().filter(l -> EXEC.matcher(l).matches()).toList();
        if (execs.size() != 1) {
            throw new IllegalStateException("expected one line `exec \"$java\" FLAGS -jar \"$jar\" \"$@\"` in the launcher,"
                    + " found " + execs.size() + ": update LauncherFlags to the launcher's new shape");
        }
        Matcher m = EXEC.matcher(execs.getFirst());
        if (!m.matches()) {
            throw new AssertionError("matched before");
        }
        List<String> flags = m.group(1).isBlank() ? List.of() : Arrays.asList(m.group(1).strip().split("\\s+"));
        flags = flags.stream().filter(f -> !f.matches("\"\\$\\{[A-Za-z_]+\\[@\\]\\}\"")).toList();
        for (String f : flags) {
            // No shell runs in the image, so only literal flags can be carried over.
            if (!f.matches("[A-Za-z0-9_.:=+,/-]+")) {
                throw new IllegalStateException("launcher flag '" + f + "' is not a literal: the image runs java"
                        + " without a shell; update LauncherFlags to expand it");
            }
        }
        return List.copyOf(flags);
    }
}
