package dev.pvtlb.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Asks {@link PvtlbExtension} for a booted guest as a test parameter:
 * {@code void test(@PvtlbGuest(cpus = 4, backend = "kvm", knobs = "kvm.pvTlbFlush=false") Guest g)}.
 * The guest is closed after the test.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.PARAMETER)
public @interface PvtlbGuest {
    /** vCPUs (a flat topology). */
    int cpus() default 4;

    /** SOCKETSxCORESxTHREADS (e.g. {@code 1x4x2}), as a scenario's {@code topology}; when set, it replaces {@link #cpus}. */
    String topology() default "";

    /** A registered backend (see {@code pvtlb backends}). */
    String backend() default "native";

    /** Guest memory in MiB; 0: the builder's default, {@code GuestConfig.DEFAULT_MEMORY} (256 MiB), a scenario's machine. */
    int memoryMiB() default 0;

    long seed() default 1;

    /** Knob settings as {@code name=value}. */
    String[] knobs() default {};

    /** pCPUs of the host model for a virtualized backend; 0: one per vCPU. */
    int pcpus() default 0;

    /** VMs sharing the host model's pCPUs (a virtualized backend). */
    int vms() default 1;

    /** A calibration profile by name or file; empty: the default one. */
    String profile() default "";

    /** Whether every pv_ops call is a tracepoint event too. */
    boolean tracePvOps() default false;

    /** Whether idle lazy CPUs walk their old mm's page tables speculatively. */
    boolean speculation() default false;
}
