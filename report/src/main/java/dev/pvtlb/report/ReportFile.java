package dev.pvtlb.report;

import dev.pvtlb.model.ModelException;
import dev.pvtlb.model.InputFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file a command was told to write (--json, --csv, --html, --out, --trace). It is checked
 * before the work that fills it starts, so a typo in a path costs nothing, not a finished run;
 * what can still fail at write time is reported the same way: one line naming the option.
 */
public final class ReportFile {
    private ReportFile() {}

    /**
     * Refuses {@code file} (given as {@code option}; null: not asked for) when it is a directory,
     * its directory is missing or not a directory, or it or its directory cannot be written.
     */
    public static void check(Path file, String option) {
        if (file == null) {
            return;
        }
        if (Files.isDirectory(file)) {
            throw new ModelException(option + " " + file + ": is a directory, not a file");
        }
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            checkDirectory(dir, option + " " + file, false);
        }
        // Permission bits do not say it for root, nor for read-only or special file systems
        // (/sys, /proc): try. Opening without truncating leaves an existing file as it was.
        boolean existed = Files.exists(file);
        try (FileChannel c = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.CREATE)) {
            c.size();
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            throw cannotWrite(option + " " + file, e);
        }
        if (!existed) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                throw cannotWrite(option + " " + file, e);
            }
        }
    }

    /**
     * Refuses {@code dir} as an output directory (given as {@code option}) when it is a file or
     * cannot be made: its parent must exist and be a writable directory, as for a file.
     */
    public static void checkDirectoryToMake(Path dir, String option) {
        if (Files.isDirectory(dir)) {
            probe(dir, option + " " + dir);
            return;
        }
        if (Files.exists(dir)) {
            throw new ModelException(option + " " + dir + " is a file, not a directory");
        }
        Path parent = dir.toAbsolutePath().getParent();
        if (parent != null) {
            checkDirectory(parent, option + " " + dir, true);
        }
    }

    private static void checkDirectory(Path dir, String what, boolean probe) {
        if (!Files.exists(dir)) {
            throw new ModelException(what + ": no such directory " + dir);
        }
        if (!Files.isDirectory(dir)) {
            throw new ModelException(what + ": " + dir + " is not a directory");
        }
        if (probe) {
            probe(dir, what);
        }
    }

    /** Makes and removes a file in {@code dir}: the only sure test that files can be written there. */
    private static void probe(Path dir, String what) {
        try {
            Files.delete(Files.createTempFile(dir, ".pvtlb-probe", ".tmp"));
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            throw cannotWrite(what, e);
        }
    }

    private static ModelException cannotWrite(String what, Exception e) {
        return new ModelException(what + ": cannot write: " + InputFile.reason(e));
    }

    /** Writes {@code text} as UTF-8; a failure is a one-line {@link ModelException} naming the option. */
    public static void write(Path file, String option, String text) {
        try {
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException | SecurityException e) {
            throw cannotWrite(option + " " + file, e);
        }
    }
}
