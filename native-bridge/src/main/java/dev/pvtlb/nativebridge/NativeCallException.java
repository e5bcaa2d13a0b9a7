package dev.pvtlb.nativebridge;

/**
 * A libc call that failed, or that was refused in Java because passing it on could have
 * harmed the JVM. The message names the call, its arguments and errno, e.g.
 * {@code munmap(addr=0x7f3c2a400000, len=0) failed: EINVAL (Invalid argument)}.
 */
public final class NativeCallException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String call;
    private final String arguments;
    private final int errno;
    private final boolean rejectedInJava;

    private NativeCallException(String call, String arguments, int errno, boolean rejectedInJava, String message) {
        super(message);
        this.call = call;
        this.arguments = arguments;
        this.errno = errno;
        this.rejectedInJava = rejectedInJava;
    }

    /** The kernel (or libc) returned an error. */
    static NativeCallException failed(String call, String arguments, int errno) {
        return new NativeCallException(call, arguments, errno, false,
                call + "(" + arguments + ") failed: " + Errno.describe(errno));
    }

    /**
     * Refused before the call. {@code errno} is what the kernel answers for the same kind
     * of argument, so callers can handle both cases alike.
     */
    static NativeCallException rejected(String call, String arguments, Errno errno, String reason) {
        return new NativeCallException(call, arguments, errno.number(), true,
                call + "(" + arguments + ") rejected before the call: "
                        + Errno.describe(errno.number()) + ": " + reason);
    }

    /** The C function, e.g. "mprotect". */
    public String call() {
        return call;
    }

    /** The arguments as rendered in the message, e.g. "addr=0x7f.., len=4096, prot=PROT_READ". */
    public String arguments() {
        return arguments;
    }

    public int errno() {
        return errno;
    }

    /** "EINVAL", or "errno N" when the value is not in {@link Errno}. */
    public String errnoName() {
        return Errno.of(errno).map(Enum::name).orElse("errno " + errno);
    }

    /** True when the call never reached libc. */
    public boolean rejectedInJava() {
        return rejectedInJava;
    }
}
