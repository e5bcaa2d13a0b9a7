package dev.pvtlb.nativebridge.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Reads host files relative to a root, so the probe runs the same on "/" and on a fixture.
 * A file that is absent or unreadable is simply not there: the probe reports what it
 * finds and never guesses a default.
 */
final class HostFiles {
    private final Path root;

    HostFiles(Path root) {
        this.root = root;
    }

    Path root() {
        return root;
    }

    Path resolve(String relative) {
        return root.resolve(relative);
    }

    Optional<List<String>> lines(String relative) {
        Path file = root.resolve(relative);
        try {
            return Optional.of(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            // Missing, EACCES (a restricted proc file) or EIO: the probe reports it absent.
            return Optional.empty();
        }
    }

    /** The first line, trimmed. */
    Optional<String> firstLine(String relative) {
        return lines(relative).flatMap(l -> l.stream().findFirst()).map(String::trim);
    }
}
