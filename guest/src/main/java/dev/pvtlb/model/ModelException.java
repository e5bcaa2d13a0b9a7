package dev.pvtlb.model;

/**
 * A request the model refuses: bad input from a scenario, a knob, or a workload (a mapping
 * outside the address space, an exhausted frame budget). Its message is one line meant for
 * the user; the command line turns it into exit code 2.
 */
public class ModelException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ModelException(String message) {
        super(message);
    }

    /**
     * The first line of a message (a parser's, a setter's, ServiceLoader's), stripped, for the
     * one-line errors of the model's own readers ("" for none). The commands' fuller cleaning
     * is the report module's {@code OneLine}.
     */
    public static String firstLine(String message) {
        if (message == null) {
            return "";
        }
        int nl = message.indexOf('\n');
        return (nl < 0 ? message : message.substring(0, nl)).strip();
    }
}
