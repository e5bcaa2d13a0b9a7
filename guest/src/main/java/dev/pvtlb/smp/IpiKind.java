package dev.pvtlb.smp;

/**
 * Which vector an IPI carries, and which path of the kernel sends it: a backend's IPI delivery may
 * hook one path and not another (KVM's PV sched yield replaces smp_ops.send_call_func_ipi, the
 * mask path alone), and a reschedule IPI wakes its target instead of running call-function csds.
 */
public enum IpiKind {
    /** arch_send_call_function_ipi_mask(): smp_ops.send_call_func_ipi, CALL_FUNCTION_VECTOR. */
    CALL_FUNCTION_MASK,
    /** arch_send_call_function_single_ipi(): CALL_FUNCTION_SINGLE_VECTOR. */
    CALL_FUNCTION_SINGLE,
    /** smp_send_reschedule(): RESCHEDULE_VECTOR. */
    RESCHEDULE
}
