package dev.pvtlb.model;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a file pvtlb was given (a scenario, a study, a profile, a trace) as text, bounded: it
 * must be a regular file no larger than a limit and valid UTF-8. Every problem is a one-line
 * {@link ModelException} naming the file and what kind of file was expected, so a directory, a
 * device, a huge or a binary file costs no more than a look at its size.
 */
public final class InputFile {
    private InputFile() {}

    /**
     * The text of {@code path}; {@code kind} names it in errors ("scenario file", "trace file").
     * At most {@code maxBytes} bytes are read, whatever the file says its size is.
     */
    public static String read(Path path, String kind, int maxBytes) {
        String name = path.toString();
        byte[] bytes;
        try {
            if (!Files.isRegularFile(path)) {
                throw new ModelException(name + ": no such " + kind + (Files.exists(path) ? " (not a regular file)" : ""));
            }
            if (Files.size(path) > maxBytes) {
                throw new ModelException(name + ": " + kind + " larger than " + maxBytes + " bytes");
            }
            // A file that grows between the size check and the read (a pipe, /proc) is still cut at the limit.
            try (var in = Files.newInputStream(path)) {
                bytes = in.readNBytes(maxBytes + 1);
            }
            if (bytes.length > maxBytes) {
                throw new ModelException(name + ": " + kind + " larger than " + maxBytes + " bytes");
            }
        } catch (IOException | SecurityException e) {
            throw new ModelException(name + ": cannot read: " + reason(e));
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ModelException(name + ": not a " + kind + " (not UTF-8 text)");
        }
    }

    /**
     * Why a file operation failed, in words (not the exception's class name, which the one-line
     * errors leave out): "permission denied", "no such file or directory", or the system's reason.
     */
    public static String reason(Exception e) {
        if (e instanceof java.nio.file.AccessDeniedException || e instanceof SecurityException) {
            return "permission denied";
        }
        if (e instanceof java.nio.file.NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof java.nio.file.NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof java.nio.file.FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() == null ? "I/O error" : e.getMessage();
    }
}
