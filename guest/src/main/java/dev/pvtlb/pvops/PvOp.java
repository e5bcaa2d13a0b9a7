package dev.pvtlb.pvops;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a public method of a backend as the implementation of one pv_ops entry, named as in
 * the kernel ({@code flush_tlb_multi}, {@code tlb_remove_table}, ...). The patcher checks the
 * method against {@link PvOpSignature} at boot.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface PvOp {
    /** The op's kernel name. */
    String value();
}
