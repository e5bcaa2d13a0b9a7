package dev.pvtlb.nativebridge;

import java.util.Optional;

/**
 * The errno values the calls of this package can return, with glibc's strerror text.
 * Numbers are the Linux generic ones (x86_64 and arm64 agree on all of these).
 */
public enum Errno {
    EPERM(1, "Operation not permitted"),
    ENOENT(2, "No such file or directory"),
    ESRCH(3, "No such process"),
    EINTR(4, "Interrupted system call"),
    EIO(5, "Input/output error"),
    EBADF(9, "Bad file descriptor"),
    EAGAIN(11, "Resource temporarily unavailable"),
    ENOMEM(12, "Cannot allocate memory"),
    EACCES(13, "Permission denied"),
    EFAULT(14, "Bad address"),
    EBUSY(16, "Device or resource busy"),
    EEXIST(17, "File exists"),
    ENODEV(19, "No such device"),
    EINVAL(22, "Invalid argument"),
    ENFILE(23, "Too many open files in system"),
    EMFILE(24, "Too many open files"),
    ENOSYS(38, "Function not implemented"),
    EOVERFLOW(75, "Value too large for defined data type"),
    EOPNOTSUPP(95, "Operation not supported");

    private final int number;
    private final String message;

    Errno(int number, String message) {
        this.number = number;
        this.message = message;
    }

    public int number() {
        return number;
    }

    /** What strerror(3) says for this value. */
    public String message() {
        return message;
    }

    public static Optional<Errno> of(int number) {
        for (Errno e : values()) {
            if (e.number == number) {
                return Optional.of(e);
            }
        }
        return Optional.empty();
    }

    /** "EINVAL (Invalid argument)", or "errno 133" for a value not in this table. */
    public static String describe(int number) {
        return of(number).map(e -> e.name() + " (" + e.message + ")").orElse("errno " + number);
    }
}
