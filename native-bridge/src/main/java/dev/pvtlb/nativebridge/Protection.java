package dev.pvtlb.nativebridge;

/** Page protections a {@link Mapping} can have; the subset of PROT_* pvtlb needs (no PROT_EXEC). */
public enum Protection {
    NONE("PROT_NONE", false, false),
    READ("PROT_READ", true, false),
    READ_WRITE("PROT_READ|PROT_WRITE", true, true);

    private final String cName;
    private final boolean readable;
    private final boolean writable;

    Protection(String cName, boolean readable, boolean writable) {
        this.cName = cName;
        this.readable = readable;
        this.writable = writable;
    }

    /** The C spelling, used in exception messages. */
    public String cName() {
        return cName;
    }

    public boolean readable() {
        return readable;
    }

    public boolean writable() {
        return writable;
    }
}
