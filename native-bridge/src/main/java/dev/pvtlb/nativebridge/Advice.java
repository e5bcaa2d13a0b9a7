package dev.pvtlb.nativebridge;

/**
 * madvise(2) advice values pvtlb may pass. Only advice that cannot make a later access
 * fault fatally is offered: DONTNEED on a private anonymous mapping just drops the pages
 * (the next touch faults in a zero page), while MADV_REMOVE or MADV_HWPOISON are left out.
 */
public enum Advice {
    NORMAL("MADV_NORMAL"),
    RANDOM("MADV_RANDOM"),
    SEQUENTIAL("MADV_SEQUENTIAL"),
    WILLNEED("MADV_WILLNEED"),
    /** Drops the pages; for a private anonymous mapping the next read sees zeroes. */
    DONTNEED("MADV_DONTNEED");

    private final String cName;

    Advice(String cName) {
        this.cName = cName;
    }

    /** The C spelling, used in exception messages. */
    public String cName() {
        return cName;
    }
}
