package dev.pvtlb.report;

/**
 * The part of a docs page a command writes: between a BEGIN line naming the command and an END
 * line, so the prose around it is kept and the figures in it are that command's, never typed
 * (docs/validation.md, docs/mutation.md). A file without the block is written whole. In report
 * because both the command line (mutants) and the validation module write such blocks.
 *
 * @param begin the block's first line, {@code <!-- BEGIN generated: COMMAND -->}
 */
public record GeneratedBlock(String begin) {
    /** The line that ends every block. */
    public static final String END = "<!-- END generated -->";

    /** The block {@code command} writes. */
    public static GeneratedBlock of(String command) {
        return new GeneratedBlock("<!-- BEGIN generated: " + command + " -->");
    }

    /** {@code existing} with its block replaced by {@code text}; {@code text} alone if it has none (or is null). */
    public String into(String existing, String text) {
        if (existing != null) {
            int b = existing.indexOf(begin);
            int end = existing.indexOf(END, Math.max(b, 0));
            if (b >= 0 && end > b) {
                return existing.substring(0, b + begin.length()) + "\n" + text + existing.substring(end);
            }
        }
        return text;
    }

    /** The file's current text, or null when there is none yet. */
    public static String read(java.nio.file.Path file, String option) {
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
