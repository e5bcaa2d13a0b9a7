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
}
