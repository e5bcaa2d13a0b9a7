package dev.pvtlb.report;

/**
 * An error message as the one line pvtlb prints for it: the first line only, without the Java
 * class names picocli and the JDK put in front of a reason, and with any control character from
 * the input (a quoted {@code \r} in an argument or a file) shown as {@code ?} so it cannot break
 * the line or move the cursor.
 */
public final class OneLine {
    private OneLine() {}

    public static String of(String message) {
        if (message == null) {
            return "";
        }
        String s = message.strip();
        int nl = s.indexOf('\n');
        // picocli quotes a converter's exception as "(java.nio.file.InvalidPathException: why)": keep the why only.
        return (nl < 0 ? s : s.substring(0, nl)).strip()
                .replaceAll("[a-z][\\w$]*(\\.[\\w$]+)*\\.[A-Z][\\w$]*(Exception|Error): ", "")
                .replaceAll("[\\p{Cntrl}\\u0085\\u2028\\u2029]", "?");
    }
}
