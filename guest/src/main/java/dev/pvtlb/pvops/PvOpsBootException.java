package dev.pvtlb.pvops;

import dev.pvtlb.model.ModelException;

/** A backend that cannot be patched into pv_ops: a missing op, a wrong signature, an op implemented twice. */
public final class PvOpsBootException extends ModelException {
    private static final long serialVersionUID = 1L;

    public PvOpsBootException(String message) {
        super(message);
    }
}
