package dev.pvtlb.model;

/**
 * The model stopped making progress: the engine's watchdog found a CPU that runs steps without
 * virtual time advancing, or retries one operation without end (a livelock in a model or a
 * backend, not bad input). Its message is one line naming the CPU and the kernel path; the
 * command line prints it and exits with code 4.
 */
public final class NoProgressException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NoProgressException(String message) {
        super(message);
    }
}
