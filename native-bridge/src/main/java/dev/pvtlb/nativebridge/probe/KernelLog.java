package dev.pvtlb.nativebridge.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The kernel's boot messages, where a guest kernel says which hypervisor it found and how
 * it will flush remote TLBs. /dev/kmsg cannot be replayed from a fixture, so the sources
 * are, in order: a saved {@code var/log/dmesg} under the root, a captured {@code dmesg.txt}
 * at the root, and only on the live root "/" the output of {@code dmesg}. The ring buffer
 * of a long-running host may have lost the boot lines; {@link #source()} says where the
 * lines came from.
 *
 * @param source "var/log/dmesg", "dmesg.txt", "dmesg" (live) or "none"
 */
record KernelLog(String source, List<String> lines) {

    private static final Pattern TIMESTAMP = Pattern.compile("^\\[\\s*\\d+\\.\\d+\\]\\s?");

    static KernelLog read(HostFiles files, boolean liveRoot) {
        for (String file : List.of("var/log/dmesg", "dmesg.txt")) {
            Optional<List<String>> lines = files.lines(file);
            if (lines.isPresent()) {
                return new KernelLog(file, lines.get());
            }
        }
        if (liveRoot) {
            Optional<List<String>> live = liveDmesg();
            if (live.isPresent()) {
                return new KernelLog("dmesg", live.get());
            }
        }
        return new KernelLog("none", List.of());
    }

    boolean readable() {
        return !lines.isEmpty();
    }

    /** A matching line (timestamp removed, kept as evidence) and the match in it. */
    record Hit(String line, MatchResult match) {}

    /** The first line matching. */
    Optional<Hit> find(Pattern pattern) {
        for (String raw : lines) {
            String line = TIMESTAMP.matcher(raw).replaceFirst("").trim();
            Matcher m = pattern.matcher(line);
            if (m.find()) {
                return Optional.of(new Hit(line, m.toMatchResult()));
            }
        }
        return Optional.empty();
    }

    /**
     * Runs {@code dmesg}; empty when it is missing, refused (dmesg_restrict=1 without
     * CAP_SYSLOG) or slow.
     */
    private static Optional<List<String>> liveDmesg() {
        Path out = null;
        try {
            // Output goes to a file, so a dmesg that hangs cannot block a read: only waitFor waits.
            out = Files.createTempFile("pvtlb-dmesg", ".txt");
            Process p = new ProcessBuilder("dmesg").redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
            return p.exitValue() == 0 && !lines.isEmpty() ? Optional.of(lines) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a leftover temp file is harmless
                }
            }
        }
    }
}
