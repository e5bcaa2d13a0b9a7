package dev.pvtlb.cli;

/**
 * The part of a docs page a command writes: between a BEGIN line naming the command and an END
 * line, so the prose around it is kept and the figures in it are that command's, never typed
 * (docs/validation.md, docs/mutation.md). A file without the block is written whole.
 */
record GeneratedBlock(String command) {
    String begin() {
        return "<!-- BEGIN generated: " + command + " -->";
    }

    static final String END = "<!-- END generated -->";

    /** {@code existing} with its block replaced by {@code text}; {@code text} alone if it has none (or is null). */
    String into(String existing, String text) {
        if (existing != null) {
            int begin = existing.indexOf(begin());
            int end = existing.indexOf(END, Math.max(begin, 0));
            if (begin >= 0 && end > begin) {
                return existing.substring(0, begin + begin().length()) + "\n" + text + existing.substring(end);
            }
        }
        return text;
    }

    /** The file's current text, or null when there is none yet. */
    static String read(java.nio.file.Path file, String option) {
        if (!java.nio.file.Files.isRegularFile(file)) {
            return null;
        }
        try {
            return java.nio.file.Files.readString(file);
        } catch (java.io.IOException | RuntimeException e) {
            throw new dev.pvtlb.model.ModelException(option + " " + file + ": cannot read it: " + e.getMessage());
        }
    }
}
